// The first of the two keys: the nexus.orchestration entitlement, read-only here (DESIGN §3: the settings UI
// never changes it — there is no import box). It says where the token came from and where to get one, and,
// when NEXUS was started with an account service, offers "Refresh from account" with its outcome.
import { useState } from 'react';
import { call, CallError } from '../../api/client.js';
import { useOrchestration } from '../../stores/orchestration.js';
import { inlineCode } from '../../components/inline-code.js';
import { useNow } from '../../components/time.js';
import { accountText, messageText, pillText, refreshOutcome, sourceText, WHERE_TO_GET, type Entitlement } from './entitlement-text.js';
import { errorMessage } from '../../../../shared/errors.js';

const Words = ({ text }: { text: string }) => <>{inlineCode(text).map((s, i) => (s.code ? <code key={i}>{s.text}</code> : <span key={i}>{s.text}</span>))}</>;

export function EntitlementKey({ entitlement }: { entitlement: Entitlement | null }) {
  const now = useNow();
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  const entitled = entitlement?.entitled ?? false;
  const account = entitlement?.account;
  const refresh = async () => {
    setBusy(true);
    setOutcome(null);
    try {
      setOutcome(refreshOutcome({ ok: true, value: await call('entitlementsRefresh', {}) }));
    } catch (e) {
      setOutcome(refreshOutcome({ ok: false, message: e instanceof CallError ? e.message : errorMessage(e) }));
    } finally {
      setBusy(false);
      void useOrchestration.getState().refreshSettings();
    }
  };
  const accountLine = accountText(entitlement, now);
  return (
    <>
      <div className="setting-row">
        <div className="setting-text">
          <span className="setting-label">Entitlement</span>
          <div className="setting-desc">
            Comes from your NEXUS account, never from this screen. <Words text={WHERE_TO_GET} />
          </div>
          <div className="setting-desc entitlement-source">
            <Words text={sourceText(entitlement, now)} />
          </div>
        </div>
        {/* The state in words a screen reader reads as it is shown: the pill's text, with what it is about. */}
        <span className={`status-pill ${entitled ? 'ok' : 'off'}`} data-testid="entitlement-state" data-state={entitlement?.status ?? 'unknown'}>
          <span className="sr-only">Entitlement: </span>
          {pillText(entitlement)}
        </span>
      </div>
      {/* Absent: its message repeats where to get it, said just above. */}
      {entitlement?.message && entitlement.status !== 'absent' ? (
        <p className="setting-note">
          <Words text={messageText(entitlement)} />
        </p>
      ) : null}
      {accountLine ? <p className={`setting-note ${account?.problem ? 'field-warn' : ''}`}>{accountLine}</p> : null}
      {account?.configured ? (
        <div className="inline-form">
          <button type="button" className="btn" disabled={busy} onClick={() => void refresh()}>
            {busy ? 'Refreshing…' : 'Refresh from account'}
          </button>
          {outcome ? (
            <span className={outcome.ok ? 'muted' : 'field-error'} role={outcome.ok ? 'status' : 'alert'}>
              {outcome.text}
            </span>
          ) : null}
        </div>
      ) : null}
    </>
  );
}
