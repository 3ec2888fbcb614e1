// A call card's answers: approve, trust (this call's kind or its agent, until NEXUS quits), an allow rule,
// or deny with a reason the agent reads.
import { useInbox, type InboxItem } from '../../stores/inbox.js';
import { useNav } from '../../stores/nav.js';
import type { Trust } from '../../stores/inbox-state.js';
import { remedyLine } from './cards.js';

interface Props {
  item: InboxItem;
  busy: boolean;
  /** The danger check found something: Approve asks for a second confirm (its label says so). */
  looksDangerous: boolean;
  trustable: boolean;
  /** The call's scope is its exact command (a bash call), so trust names "this command". */
  sameCommand: boolean;
  reason: string;
  setReason(s: string): void;
  allowing: boolean;
  setAllowing(open: boolean): void;
  onApprove(item: InboxItem, trust?: Trust): void;
}

export function CallAnswers({ item, busy, looksDangerous, trustable, sameCommand, reason, setReason, allowing, setAllowing, onApprove }: Props) {
  const deny = useInbox((s) => s.deny);
  return (
    <footer className="card-actions">
      <div className="answer-buttons">
        <button type="button" className="btn primary" disabled={busy} onClick={() => onApprove(item)}>
          Approve{looksDangerous ? '…' : ''}
        </button>
        {trustable ? (
          <>
            <button type="button" className="btn" disabled={busy} aria-describedby={`trust-${item.id}`} onClick={() => onApprove(item, 'call')}>
              {sameCommand ? 'Trust this command' : 'Trust calls like this'}
            </button>
            <button type="button" className="btn" disabled={busy} aria-describedby={`trust-${item.id}`} onClick={() => onApprove(item, 'agent')}>
              Trust {item.agent ?? 'this agent'}
            </button>
          </>
        ) : null}
        {item.kind === 'autonomy' && item.agent && !item.escape ? (
          <button type="button" className="btn ghost" aria-expanded={allowing} onClick={() => setAllowing(!allowing)}>
            Allow calls like this…
          </button>
        ) : null}
      </div>
      <div className="deny-group">
        <input
          className="input"
          aria-label="Reason for denying (optional)"
          placeholder="Reason (optional, the agent reads it)"
          value={reason}
          maxLength={4096}
          onChange={(e) => setReason(e.target.value)}
        />
        <button type="button" className="btn danger-outline" disabled={busy} onClick={() => deny(item.id, reason)}>
          Deny
        </button>
      </div>
      {trustable ? (
        <p className="muted small trust-note" id={`trust-${item.id}`}>
          Both approve now and keep approving until NEXUS quits: <strong>{sameCommand ? 'this command' : 'calls like this'}</strong> exactly, or every call of{' '}
          <strong>{item.agent}</strong> that would ask you. Deny rules still bind. See and take back grants in{' '}
          <a
            href="#/settings"
            onClick={(e) => {
              e.preventDefault();
              useNav.getState().go('settings', 'grants');
            }}
          >
            Settings ▸ Agents ▸ Grants
          </a>
          .
        </p>
      ) : null}
      {remedyLine(item) ? <p className="remedy">{remedyLine(item)}</p> : null}
    </footer>
  );
}
