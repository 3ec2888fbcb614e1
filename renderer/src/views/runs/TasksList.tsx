// Delegated tasks (under Runs): who delegated what to whom, its state, the refusals so far, the exit code of
// the last acceptance check, and the orchestration hold a waiting task waits on. Refreshed with the run list.
import { useEffect, useState } from 'react';
import type { z } from 'zod';
import { call } from '../../api/client.js';
import { useRuns } from '../../stores/runs.js';
import type { TaskListItem } from '../../../../shared/api/orchestration.js';
import { shortId } from '../inbox/cards.js';
import { errorMessage } from '../../../../shared/errors.js';

type Task = z.infer<typeof TaskListItem>;

export function TasksList() {
  const runs = useRuns((s) => s.runs);
  const open = useRuns((s) => s.open);
  const [tasks, setTasks] = useState<Task[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    call('tasksList', {}).then(
      (t) => live && (setTasks(t), setError(null)),
      (e) => live && setError(errorMessage(e)),
    );
    return () => {
      live = false;
    };
  }, [runs]);
  return (
    <details className="tasks-list">
      <summary>Delegated tasks{tasks ? ` (${tasks.length})` : ''}</summary>
      {error ? <div className="banner error">{error}</div> : null}
      {tasks && tasks.length === 0 ? <p className="muted pad">No agent has delegated a task yet.</p> : null}
      {tasks && tasks.length ? (
        <table className="tasks-table">
          <caption className="sr-only">Delegated tasks, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Task</th>
              <th scope="col">Delegator → recipient</th>
              <th scope="col">State</th>
              <th scope="col">Refusals</th>
              <th scope="col">Last check</th>
            </tr>
          </thead>
          <tbody>
            {tasks.map((t) => (
              <tr key={t.id} data-task-id={t.id}>
                <td>
                  {t.run_id ? (
                    <button type="button" className="link" onClick={() => open(t.run_id!)} title={`Open the run of task ${t.id}`}>
                      {/* The name starts with what is shown (WCAG 2.5.3); the full id is in the title. */}
                      <code>{shortId(t.id)}</code>
                      <span className="sr-only"> (open its run)</span>
                    </button>
                  ) : (
                    <code>{shortId(t.id)}</code>
                  )}
                  <span className="muted clip"> {t.task}</span>
                </td>
                <td>
                  {t.delegator} → {t.recipient}
                </td>
                <td>
                  <span className={`status-pill ${t.waiting_on.length ? 'waiting' : t.state}`}>{t.waiting_on.length ? 'waiting' : t.state}</span>
                  {t.waiting_on.map((w) => (
                    <span key={w.request_id} className="muted small">
                      {' '}
                      on hold <code title={w.request_id}>{shortId(w.request_id)}</code> (hop {w.hop})
                    </span>
                  ))}
                </td>
                <td>{t.refusals}</td>
                <td>{t.last_check_exit_code === null ? '—' : `exit ${t.last_check_exit_code}`}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </details>
  );
}
