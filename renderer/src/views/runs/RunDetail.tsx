// One run: its rounds and rows with their states, who approved what, delegated tasks' evidence; append, stop.
import { useRef, useState } from 'react';
import { useRuns, type RunFull } from '../../stores/runs.js';
import { call } from '../../api/client.js';
import { ago, useNow } from '../../components/time.js';
import { RunAgain } from './RunAgain.js';
import { shortId } from '../inbox/cards.js';
import { groupRows } from './rows.js';
import { RowLine } from './RowLine.js';
import { AppendRow } from './AppendRow.js';
import { LoadMore } from '../../components/LoadMore.js';
import { errorMessage } from '../../../../shared/errors.js';

export function RunDetailView({ run }: { run: RunFull }) {
  const now = useNow();
  const [stopNote, setStopNote] = useState<string | null>(null);
  const groups = groupRows(run.rows);
  const { loadingMoreRows, loadMoreRows, rowsNote } = useRuns();
  const firstAdded = useRef<string | null>(null);
  return (
    <div className="run-detail">
      <header className="page-head row">
        <div>
          <p className="crumbs">Runs ▸ {run.id}</p>
          <h1>
            {run.agent ?? 'Standalone run'} <span className={`status-pill ${run.status}`}>{run.status}</span>
          </h1>
          <p className="muted">
            mode <strong>{run.mode}</strong> · started {ago(run.created_at, now)} · {run.rows.length} row{run.rows.length === 1 ? '' : 's'}
            {run.rows_next_cursor ? ' shown, more to load' : ''}
            {run.chain_id ? (
              <>
                {' '}
                · chain <code title={run.chain_id}>{shortId(run.chain_id)}</code>
              </>
            ) : null}
          </p>
          {run.client ? (
            <p className="muted">
              A {run.client.name} session (<code title={run.client.session_id}>{shortId(run.client.session_id)}</code>): its calls came through its tool hook,
              and it ran what NEXUS allowed.
            </p>
          ) : null}
          {run.waiting_on?.map((w) => (
            <p key={w.request_id} className="field-warn" role="status">
              Waiting on orchestration hold <code title={w.request_id}>{shortId(w.request_id)}</code> (hop {w.hop}: {w.agent} wants {w.tool} on {w.target}).
              Answer it in the Inbox; unanswered, it expires {new Date(w.expires_at).toLocaleString()} and the hop is refused.
            </p>
          ))}
        </div>
        {run.status === 'running' ? (
          <button
            type="button"
            className="btn danger-outline"
            onClick={async () => {
              try {
                await call('runsStop', { id: run.id });
                void useRuns.getState().refreshDetail();
              } catch (e) {
                setStopNote(errorMessage(e));
              }
            }}
          >
            Stop run
          </button>
        ) : (
          <RunAgain run={run} />
        )}
      </header>
      {stopNote ? <div className="banner error">{stopNote}</div> : null}
      {run.prompt ? (
        <section className="panel">
          <h2 className="section-label">Prompt</h2>
          <p className="prose">{run.prompt}</p>
        </section>
      ) : null}
      {run.budget ? (
        <p className="muted" data-testid="run-budget">
          Budget: {run.budget.rounds} of {run.budget.max_rounds} model rounds, {run.budget.rows} of {run.budget.max_rows} tool calls (the run ends at either;
          max_rounds and max_rows in the agent file).
        </p>
      ) : null}
      {run.final_answer || run.error ? (
        <section className={`panel ${run.error ? 'bad' : ''}`}>
          <h2 className="section-label">{run.error ? 'Error' : 'Answer'}</h2>
          <p className="prose">{run.error ?? run.final_answer}</p>
        </section>
      ) : null}
      <section className="panel">
        <h2 className="section-label">Rows</h2>
        {run.rows.length === 0 ? (
          <p className="muted">{run.status === 'running' ? 'No tool calls yet.' : 'No tool calls: the run ended without any.'}</p>
        ) : null}
        {/* One table for every group, so the columns line up across rounds at any window width. */}
        {groups.length ? (
          <div className="round">
            <table className="rows">
              {groups.map((g) => (
                <tbody key={g.key}>
                  {groups.length > 1 || g.label.startsWith('Round') ? (
                    <tr className="group-head">
                      <th colSpan={5} scope="colgroup">
                        {g.label}
                      </th>
                    </tr>
                  ) : null}
                  {g.rows.map((r) => (
                    <RowLine key={r.id} row={r} />
                  ))}
                </tbody>
              ))}
            </table>
          </div>
        ) : null}
        <LoadMore
          label="Load more rows"
          hasMore={!!run.rows_next_cursor}
          busy={loadingMoreRows}
          note={rowsNote}
          onMore={async () => {
            firstAdded.current = (await loadMoreRows())[0]?.id ?? null;
          }}
          // The last page took the button away: the focus goes to the first row it brought.
          onDone={() => {
            const id = firstAdded.current;
            if (id) document.querySelector<HTMLElement>(`tr[data-row-id="${CSS.escape(id)}"] button`)?.focus();
          }}
        />
        {run.status === 'running' ? <AppendRow runId={run.id} /> : null}
      </section>
    </div>
  );
}
