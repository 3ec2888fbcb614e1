// Runs: start one, list them, open one.
import { useEffect, useMemo, useRef, useState } from 'react';
import { useRuns } from '../../stores/runs.js';
import { useAgents } from '../../stores/agents.js';
import { call } from '../../api/client.js';
import { ago, useNow } from '../../components/time.js';
import { RunDetailView } from './RunDetail.js';
import { Empty } from '../../components/Empty.js';
import { LoadMore } from '../../components/LoadMore.js';
import { TasksList } from './TasksList.js';
import { RunsFilter } from './RunsFilter.js';
import { shortId } from '../inbox/cards.js';
import type { Mode } from '../../../../shared/types.js';
import { errorMessage } from '../../../../shared/errors.js';

function StartRun() {
  // A connected client's agent starts its runs itself (from its tool hook), never from here.
  const all = useAgents((s) => s.agents);
  const agents = useMemo(() => all.filter((a) => !a.external), [all]);
  const [agent, setAgent] = useState('');
  const [prompt, setPrompt] = useState('');
  const [mode, setMode] = useState<Mode>('ask');
  const [note, setNote] = useState<string | null>(null);
  useEffect(() => {
    if (!agent && agents.length) setAgent(agents[0].name);
  }, [agents, agent]);
  const open = (id: string) => useRuns.getState().open(id);
  return (
    <div className="start-run">
      <form
        className="stack"
        aria-label="Start a run"
        onSubmit={async (e) => {
          e.preventDefault();
          try {
            const run = await call('runsStart', { agent, prompt });
            setPrompt('');
            setNote(null);
            open(run.id);
          } catch (err) {
            setNote(errorMessage(err));
          }
        }}
      >
        <select className="input" aria-label="Agent" value={agent} onChange={(e) => setAgent(e.target.value)} disabled={!agents.length}>
          {agents.length ? agents.map((a) => <option key={a.name}>{a.name}</option>) : <option value="">No agents yet</option>}
        </select>
        <textarea
          className="input"
          rows={2}
          aria-label="Prompt"
          placeholder="What should the agent do?"
          value={prompt}
          onChange={(e) => setPrompt(e.target.value)}
        />
        <button type="submit" className="btn primary" disabled={!agent || !prompt.trim()}>
          Start run
        </button>
      </form>
      <form
        className="inline-form"
        aria-label="Create a standalone run"
        onSubmit={async (e) => {
          e.preventDefault();
          try {
            open((await call('runsCreate', { mode })).id);
          } catch (err) {
            setNote(errorMessage(err));
          }
        }}
      >
        <select className="input small" aria-label="Standalone run mode" value={mode} onChange={(e) => setMode(e.target.value as Mode)}>
          {/* A bare "ask" beside the button did not say it is the new run's mode. */}
          <option value="ask">ask mode</option>
          <option value="rules">rules mode</option>
          <option value="bypass">bypass mode</option>
        </select>
        <button type="submit" className="btn small">
          New standalone run
        </button>
      </form>
      {note ? (
        <div className="banner error" role="alert">
          {note}
        </div>
      ) : null}
    </div>
  );
}

const focusRun = (id: string | null) => {
  if (id) document.querySelector<HTMLButtonElement>(`button[data-run-id="${CSS.escape(id)}"]`)?.focus();
};

export function RunsView() {
  const { runs, loaded, error, openId, detail, detailError, open, hasMore, loadingMore, loadMore, listNote, filter, setFilter } = useRuns();
  const filtered = Object.keys(filter).length > 0;
  const now = useNow();
  const more = useRef<string | null>(null);
  // Run events off screen only mark the list stale (events.ts); looking at it brings it up to date.
  useEffect(() => {
    if (useRuns.getState().stale) void useRuns.getState().refresh();
  }, []);
  return (
    <div className="split">
      <aside className="list-pane">
        <div className="queue-head">
          <h1>Runs</h1>
        </div>
        <StartRun />
        <RunsFilter />
        {error ? <div className="banner error">{error}</div> : null}
        <ul className="item-list" aria-label="Runs">
          {runs.map((r) => (
            <li key={r.id}>
              <button
                type="button"
                data-run-id={r.id}
                className={`item ${openId === r.id ? 'selected' : ''}`}
                aria-current={openId === r.id || undefined}
                onClick={() => open(r.id)}
              >
                <span className="item-top">
                  <strong>{r.agent ?? 'standalone'}</strong>
                  {r.client ? <span className="badge">{r.client.name} session</span> : null}
                  {/* A run waiting on an orchestration hold is not simply "running": it waits on a person. */}
                  <span className={`status-pill ${r.waiting_on?.length ? 'waiting' : r.status}`}>{r.waiting_on?.length ? 'waiting' : r.status}</span>
                </span>
                <span className="muted clip">{r.prompt ?? r.id}</span>
                {r.client ? (
                  <span className="muted small clip" data-testid="client-session">
                    in {r.client.folder ?? '?'} ·{' '}
                    {r.client.last_call ? `last call ${r.client.last_call.tool} ${ago(r.client.last_call.at, now)}` : 'no call yet'}
                  </span>
                ) : null}
                <span className="muted small">
                  {ago(r.created_at, now)}
                  {r.pending ? ` · ${r.pending} waiting` : ''}
                  {r.waiting_on?.length ? ` · on hold ${shortId(r.waiting_on[0]!.request_id)} (hop ${r.waiting_on[0]!.hop})` : ''}
                </span>
              </button>
            </li>
          ))}
          {loaded && runs.length === 0 ? (
            <li className="muted pad">
              {filtered ? (
                <>
                  No run matches these filters.{' '}
                  <button type="button" className="link" onClick={() => setFilter({})}>
                    Show every run
                  </button>
                </>
              ) : (
                'No runs yet.'
              )}
            </li>
          ) : null}
        </ul>
        <LoadMore
          label="Load more runs"
          hasMore={hasMore}
          busy={loadingMore}
          note={listNote}
          onMore={async () => {
            const added = await loadMore();
            more.current = added[0]?.id ?? null;
          }}
          // The last page ended the list and took the button: the focus goes to the first run it brought.
          onDone={() => focusRun(more.current)}
        />
        <TasksList />
      </aside>
      <section className="detail-pane" tabIndex={0} aria-label="Run">
        {detail ? (
          <RunDetailView run={detail} />
        ) : detailError ? (
          <div className="banner error">{detailError}</div>
        ) : openId ? (
          <div className="loading">Loading run…</div>
        ) : (
          <Empty title="Runs are agent turns" icon="▷">
            <p>
              A run is one agent turn, or your own standalone run. Each tool call is a row that crosses the approval stage: granted rows run, parked rows wait
              for you in the Inbox, denied rows fail with the reason the agent reads.
            </p>
            <p>Start a run for an agent on the left, or create a standalone run and append rows to it yourself (your rows are never re-prompted).</p>
          </Empty>
        )}
      </section>
    </div>
  );
}
