// Settings ▸ App: how long the Inbox holds an answer before sending it (Undo in the toast meanwhile).
// Kept in this window (localStorage): it is about this person's hands, not about what the kernel allows.
import { useState } from 'react';
import { GRACE_CHOICES, graceMs, setGraceMs } from '../../stores/answer-grace.js';

export function UndoGraceSetting() {
  const [ms, setMs] = useState(graceMs());
  return (
    <section className="panel">
      <div className="setting-row">
        <div className="setting-text">
          <label className="setting-label" htmlFor="undo-grace">
            Undo grace in the Inbox
          </label>
          <div className="setting-desc" id="undo-grace-desc">
            Approve and Deny wait this long in the window, with Undo (or <kbd>u</kbd>), before they are sent to the agent. Off sends at once. Bulk answers are
            confirmed in a dialog instead and are sent at once.
          </div>
        </div>
        <select
          id="undo-grace"
          className="input"
          aria-describedby="undo-grace-desc"
          value={ms}
          onChange={(e) => {
            const v = Number(e.target.value);
            setGraceMs(v);
            setMs(v);
          }}
        >
          {GRACE_CHOICES.map((c) => (
            <option key={c} value={c}>
              {c === 0 ? 'Off' : `${c / 1000} seconds`}
            </option>
          ))}
        </select>
      </div>
    </section>
  );
}
