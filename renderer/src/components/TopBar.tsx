// The top bar: where you are, how many cards wait, and the one button that halts everything.
import { lazy, Suspense, useState } from 'react';
import { useStatus } from '../stores/status.js';
import { useNav, VIEWS } from '../stores/nav.js';
import { ConfirmDialog } from './ConfirmDialog.js';
import { HelpMenu } from './HelpMenu.js';

import { helpFor } from '../help/help-pages.js';
import { errorMessage } from '../../../shared/errors.js';

// The help pages load when first asked for: they stay out of the first paint.
const HelpDialog = lazy(() => import('../help/HelpDialog.js').then((m) => ({ default: m.HelpDialog })));

export function TopBar() {
  const { pending, stopAll, connection, runsInFlight } = useStatus();
  const { view, go } = useNav();
  const [confirming, setConfirming] = useState(false);
  const [note, setNote] = useState<string | null>(null);
  const section = useNav((s) => s.section);
  const [helping, setHelping] = useState(false);
  const help = helpFor(view, section);

  const stop = async () => {
    setConfirming(false);
    try {
      // How many runs stopped is said in the red bar (StopAllBar), not in a note over it.
      await useStatus.getState().stopEverything();
      setNote(null);
    } catch (e) {
      setNote(errorMessage(e));
    }
  };

  return (
    <header className="topbar">
      <div className="brand">
        <span className="brand-mark" aria-hidden="true">
          ⬡
        </span>
        <span className="brand-name">NEXUS</span>
      </div>
      <nav className="tabs" aria-label="Views">
        {VIEWS.map((v) => (
          <a
            key={v.id}
            href={`#/${v.id}`}
            className={`tab ${view === v.id ? 'active' : ''}`}
            aria-current={view === v.id ? 'page' : undefined}
            onClick={(e) => {
              e.preventDefault();
              go(v.id);
            }}
          >
            {v.label}
            {v.id === 'inbox' && pending > 0 ? <span className="tab-count">{pending}</span> : null}
          </a>
        ))}
      </nav>
      <div className="topbar-right">
        {connection === 'locked' ? (
          // The browser host refused this tab's key or it has none (a reload): it cannot get back in by itself.
          // A status, not an alert: the failed calls' banner already alerts, with the host's exact reason.
          <span className="conn-lost" role="status">
            No key to NEXUS: run <code>nexus open</code> in a terminal and open the address it prints.
          </span>
        ) : connection !== 'open' ? (
          <span
            className="conn-lost"
            role="status"
            // Only the browser host loses its connection; a restarted `nexus serve` has a new token (and with
            // --port 0 a new port), so this tab cannot get back in by itself: say what to do.
            title={connection === 'closed' ? 'If NEXUS was restarted, open the address `nexus serve` printed: each launch has a new token.' : undefined}
          >
            {connection === 'connecting' ? 'Connecting…' : 'Connection lost, reconnecting… (restarted? open the new address it printed)'}
          </span>
        ) : null}
        <span className={`pending-pill ${pending ? 'has' : ''}`} role="status" aria-label={`${pending} pending`} data-testid="pending-count">
          <strong>{pending}</strong> pending
        </span>
        <HelpMenu page={help} onPage={() => setHelping(true)} />
        {/* Always on screen: engaged, the red bar below carries Resume (StopAllBar). */}
        {stopAll ? (
          <span className="stop-engaged" role="status">
            <span className="dot" aria-hidden="true" /> Stop all engaged
          </span>
        ) : (
          <button type="button" id="stop-all-button" className="btn danger" onClick={() => setConfirming(true)}>
            Stop all
          </button>
        )}
      </div>
      {note ? (
        <div className="topbar-note" role="status">
          {note}
          <button type="button" className="link" aria-label="Dismiss" onClick={() => setNote(null)}>
            ×
          </button>
        </div>
      ) : null}
      {helping ? (
        <Suspense fallback={null}>
          <HelpDialog file={help.file} onClose={() => setHelping(false)} />
        </Suspense>
      ) : null}
      {confirming ? (
        <ConfirmDialog title="Stop everything?" confirmLabel="Stop everything" danger onConfirm={stop} onCancel={() => setConfirming(false)}>
          <p>
            Every run in flight ({runsInFlight}) is force-stopped: its tool calls are canceled and hook work is canceled without being asked. Until you press{' '}
            <strong>Resume</strong>, every governed hop of every chain is denied with <code>orchestration_stopped</code>.
          </p>
        </ConfirmDialog>
      ) : null}
    </header>
  );
}
