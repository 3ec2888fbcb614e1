// While Stop all is engaged: a red bar across every view, with Resume in it, saying what Resume does and
// does not undo (canceled runs stay canceled; only new hops are allowed again).
import { useState } from 'react';
import { useStatus } from '../stores/status.js';
import { errorMessage } from '../../../shared/errors.js';

export function StopAllBar() {
  const stopAll = useStatus((s) => s.stopAll);
  const stopped = useStatus((s) => s.lastStopped);
  const [problem, setProblem] = useState<string | null>(null);
  if (!stopAll) return null;
  return (
    <section className="stop-bar" aria-labelledby="stop-bar-title">
      <p id="stop-bar-title">
        <strong>Stop all is engaged.</strong>
        {stopped !== null ? ` ${stopped} run${stopped === 1 ? ' was' : 's were'} force-stopped.` : ''}{' '}
        <span id="stop-bar-desc">Every governed hop is denied. Resume allows new hops again; runs that were canceled stay canceled.</span>
      </p>
      <button
        type="button"
        className="btn resume"
        aria-describedby="stop-bar-desc"
        onClick={async () => {
          try {
            await useStatus.getState().resume();
            setProblem(null);
            // The bar (and this button) leaves: focus goes to the Stop all button that takes its place, not <body>.
            requestAnimationFrame(() => document.getElementById('stop-all-button')?.focus());
          } catch (e) {
            setProblem(errorMessage(e));
          }
        }}
      >
        Resume
      </button>
      {problem ? <span role="alert">{problem}</span> : null}
    </section>
  );
}
