// A canceled run (Stop all, Stop run) is not resumed: "Run again" starts a new run of the same agent with
// the same prompt, under the profile as it is now, and opens it. The canceled run stays as it was.
import { useState } from 'react';
import { call } from '../../api/client.js';
import { useRuns, type RunFull } from '../../stores/runs.js';
import { errorMessage } from '../../../../shared/errors.js';

export function RunAgain({ run }: { run: RunFull }) {
  const [note, setNote] = useState<string | null>(null);
  if (run.status !== 'canceled' || !run.agent || !run.prompt || run.client) return null;
  const { agent, prompt } = run;
  return (
    <>
      <button
        type="button"
        className="btn"
        title="Starts a new run of this agent with the same prompt"
        onClick={async () => {
          try {
            const next = await call('runsStart', { agent, prompt });
            useRuns.getState().open(next.id);
          } catch (e) {
            setNote(errorMessage(e));
          }
        }}
      >
        Run again
      </button>
      {note ? (
        <span className="field-error" role="alert">
          {note}
        </span>
      ) : null}
    </>
  );
}
