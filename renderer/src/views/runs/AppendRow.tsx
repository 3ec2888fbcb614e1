// Append a row to a running run by hand: a tool and its JSON input (the list above shows what became of it).
import { useState } from 'react';
import { useRuns } from '../../stores/runs.js';
import { call } from '../../api/client.js';
import { shortId } from '../inbox/cards.js';
import { errorMessage } from '../../../../shared/errors.js';

export function AppendRow({ runId }: { runId: string }) {
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
