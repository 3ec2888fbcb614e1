// One row of a run: origin, tool, its input (opened to show input and result), state and who granted it; its
// error on a line of its own, and a delegated task's evidence under it.
import { useState } from 'react';
import { readableInput } from '../inbox/cards.js';
import { TaskEvidence } from './TaskEvidence.js';
import { useInbox } from '../../stores/inbox.js';
import { useNav } from '../../stores/nav.js';
import { grantLine, stateLabel, type Row } from './rows.js';

export const taskIdOf = (r: Row): string | null => {
  const sc = r.result?.structuredContent as Record<string, unknown> | undefined;
  const id = sc?.task_id ?? (sc?.task as { id?: unknown } | undefined)?.id;
  return typeof id === 'string' ? id : null;
};

export function RowLine({ row }: { row: Row }) {
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
