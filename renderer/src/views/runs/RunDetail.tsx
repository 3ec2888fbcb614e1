// One run: its rounds and rows with their states, who approved what, delegated tasks' evidence; append, stop.
import { useRef, useState } from 'react';
import { useRuns, type RunFull } from '../../stores/runs.js';
import { call } from '../../api/client.js';
import { ago, useNow } from '../../components/time.js';
import { readableInput } from '../inbox/cards.js';
import { TaskEvidence } from './TaskEvidence.js';
import { RunAgain } from './RunAgain.js';
import { useInbox } from '../../stores/inbox.js';
import { useNav } from '../../stores/nav.js';
import { shortId } from '../inbox/cards.js';
import { grantLine, groupRows, stateLabel, type Row } from './rows.js';
import { LoadMore } from '../../components/LoadMore.js';
import { errorMessage } from '../../../../shared/errors.js';

export const taskIdOf = (r: Row): string | null => {
  const sc = r.result?.structuredContent as Record<string, unknown> | undefined;
  const id = sc?.task_id ?? (sc?.task as { id?: unknown } | undefined)?.id;
  return typeof id === 'string' ? id : null;
};

function RowLine({ row }: { row: Row }) {
  const input = readableInput(row.tool, row.input);
  const [open, setOpen] = useState(false);
  const task = row.tool === 'delegate_task' ? taskIdOf(row) : null;
  const resultText = row.result?.content?.map((c) => c.text).join('\n');
  return (
    <>
      <tr className={`row-line state-${stateLabel(row).cls}`} data-row-id={row.id}>
        <td>
          <span className={`origin ${row.origin}`}>{row.origin}</span>
        </td>
        <td>
          <code>{row.tool}</code>
        </td>
        <td className="input-cell">
          <button type="button" className="link mono clip" onClick={() => setOpen(!open)} aria-expanded={open} title="Show input and result">
            {input.text.replace(/\s+/g, ' ').slice(0, 90)}
          </button>
        </td>
        <td>
          <span className={`state-pill ${stateLabel(row).cls}`}>{stateLabel(row).text}</span>
        </td>
        <td className="muted">
          {row.state === 'needs_approval' ? (
            <button
              type="button"
              className="link"
              onClick={() => {
                useInbox.getState().select(row.id);
                useNav.getState().go('inbox');
              }}
            >
              Answer in the Inbox
            </button>
          ) : (
            grantLine(row)
          )}
        </td>
      </tr>
      {/* The error on a line of its own under the row: as a sixth column it starved the others (a narrow
          window squeezed it to a letter a line, or pushed the table out of its panel). */}
      {row.error ? (
        <tr className={`row-error state-${stateLabel(row).cls}`}>
          <td />
          <td colSpan={4} className="err-cell">
            <code>{row.error.code}</code> {row.error.detail}
          </td>
        </tr>
      ) : null}
      {open ? (
        <tr className="row-expanded">
          <td colSpan={5}>
            <pre className="code">{input.text}</pre>
            {resultText ? <pre className={`code result ${row.result?.isError ? 'is-error' : ''}`}>{resultText}</pre> : null}
          </td>
        </tr>
      ) : null}
      {task ? (
        <tr className="row-expanded">
          <td colSpan={5}>
            <TaskEvidence id={task} />
          </td>
        </tr>
      ) : null}
    </>
  );
}

function AppendRow({ runId }: { runId: string }) {
  const [tool, setTool] = useState('bash');
  const [inputText, setInputText] = useState('{"command": "echo hello"}');
  const [note, setNote] = useState<{ ok: boolean; text: string } | null>(null);
  return (
    <>
      <form
        className="inline-form append"
        aria-label="Append a row"
        onSubmit={async (e) => {
          e.preventDefault();
          let input: unknown = {};
          try {
            input = inputText.trim() ? JSON.parse(inputText) : {};
          } catch (err) {
            setNote({ ok: false, text: `The input is not JSON: ${errorMessage(err)}` });
            return;
          }
          try {
            // The row's state moves on at once (granted rows run): the list above shows it, not a stale word here.
            const row = await call('runsAppend', { run_id: runId, tool, input });
            setNote({ ok: true, text: `Appended ${shortId(row.id)}: see it in the list above.` });
            void useRuns.getState().refreshDetail();
          } catch (err) {
            setNote({ ok: false, text: errorMessage(err) });
          }
        }}
      >
        <input className="input small" aria-label="Tool" value={tool} onChange={(e) => setTool(e.target.value)} />
        <input className="input mono grow" aria-label="Input (JSON)" value={inputText} onChange={(e) => setInputText(e.target.value)} />
        <button type="submit" className="btn">
          Append row
        </button>
      </form>
      {/* Below the form, not inside it: a long note squeezed the input to a few characters. */}
      {note ? (
        <p className={note.ok ? 'muted append-note' : 'field-error append-note'} role={note.ok ? 'status' : 'alert'}>
          {note.text}
        </p>
      ) : null}
    </>
  );
}

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
