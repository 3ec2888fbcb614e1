// A delegated task's acceptance-check evidence: what was run, what it produced, whether it passed.
import { useEffect, useState } from 'react';
import { call } from '../../api/client.js';
import type { z } from 'zod';
import type { TaskView } from '../../../../shared/api/orchestration.js';
import { errorMessage } from '../../../../shared/errors.js';

export function TaskEvidence({ id }: { id: string }) {
  const [task, setTask] = useState<z.infer<typeof TaskView> | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    call('tasksShow', { id }).then(setTask, (e) => setError(errorMessage(e)));
  }, [id]);
  if (error)
    return (
      <p className="muted">
        Task {id}: {error}
      </p>
    );
  if (!task) return <p className="muted">Loading task {id}…</p>;
  return (
    <div className="evidence">
      <p>
        Delegated to <strong>{task.recipient}</strong>: <span className={`status-pill ${task.status}`}>{task.status}</span>
        {task.refusals ? <span className="muted"> · {task.refusals} refusal(s)</span> : null}
      </p>
      <p className="muted">
        Acceptance check: <code>{task.acceptance_check.command}</code>
      </p>
      {task.evidence.length === 0 ? <p className="muted">No check has run yet.</p> : null}
      <ol className="evidence-list">
        {task.evidence.map((ev, i) => (
          <li key={i} className={ev.passed ? 'passed' : 'failed'}>
            <span className={`outcome ${ev.passed ? 'granted' : 'failed'}`}>{ev.passed ? 'passed' : 'failed'}</span> exit {ev.exit_code ?? '—'} ·{' '}
            {Math.round(ev.duration_ms)} ms · {new Date(ev.at).toLocaleTimeString()}
            {ev.output ? <pre className="code">{ev.output}</pre> : null}
          </li>
        ))}
      </ol>
    </div>
  );
}
