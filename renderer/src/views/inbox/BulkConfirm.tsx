// The confirmation of a bulk answer: the count and the calls named. A bulk approval that includes a call the
// danger classifier flags names those calls first, with why, and asks a second confirm, as one card would.
// Checked cards the window has not loaded cannot be classified here, so they count as flagged (fail closed).
import { useState } from 'react';
import { ConfirmDialog } from '../../components/ConfirmDialog.js';
import { cardLabel } from '../../stores/inbox-list.js';
import type { InboxItem } from '../../stores/inbox.js';
import { classifyDanger, type DangerFinding } from '../../../../shared/inbox/danger.js';
import type { EffectProfile } from '../../../../shared/types.js';

interface Props {
  action: 'approve' | 'deny';
  ids: string[];
  /** The checked cards the window has loaded (the rest were checked by "Select all matching"). */
  named: InboxItem[];
  onConfirm(reason: string): void;
  onCancel(): void;
}

const findingsOf = (i: InboxItem): DangerFinding[] => {
  const effect = i.effect as Partial<EffectProfile> | undefined;
  return classifyDanger(i.tool, effect?.input, effect?.workspace);
};

export function BulkConfirm({ action, ids, named, onConfirm, onCancel }: Props) {
  const [reason, setReason] = useState('');
  const [second, setSecond] = useState(false);
  const n = ids.length;
  const calls = `${n} call${n === 1 ? '' : 's'}`;
  const flagged = action === 'approve' ? named.map((i) => ({ item: i, findings: findingsOf(i) })).filter((f) => f.findings.length) : [];
  const unseen = n - named.length;
  const needsSecond = action === 'approve' && (flagged.length > 0 || unseen > 0);
  const rest = named.filter((i) => !flagged.some((f) => f.item.id === i.id));
  const flaggedList = flagged.length ? (
    <ul className="bulk-calls bulk-flagged" aria-label="Calls that need a second look">
      {flagged.map((f) => (
        <li key={f.item.id}>
          <code>{cardLabel(f.item)}</code>
          <ul>
            {f.findings.map((d) => (
              <li key={d.kind}>{d.message}</li>
            ))}
          </ul>
        </li>
      ))}
    </ul>
  ) : null;
  const unseenLine =
    unseen > 0 ? (
      <p>{unseen} of the checked cards are not loaded in this window, so they were not looked at for danger. Open them first to see each call.</p>
    ) : null;

  if (second)
    return (
      <ConfirmDialog
        key="second"
        title={`Approve ${calls}, ${flagged.length ? `${flagged.length} that need${flagged.length === 1 ? 's' : ''} a second look` : `${unseen} not looked at`}?`}
        confirmLabel="Approve anyway"
        danger
        onConfirm={() => onConfirm('')}
        onCancel={onCancel}
      >
        {flaggedList}
        {unseenLine}
        <p>Press Enter to approve all {calls}, Escape to go back to the queue.</p>
      </ConfirmDialog>
    );
  return (
    <ConfirmDialog
      key="first"
      title={`${action === 'approve' ? 'Approve' : 'Deny'} ${calls}?`}
      confirmLabel={`${action === 'approve' ? 'Approve' : 'Deny'} ${n}${needsSecond ? '…' : ''}`}
      danger={action === 'deny'}
      onConfirm={() => (needsSecond ? setSecond(true) : onConfirm(reason))}
      onCancel={onCancel}
    >
      {flagged.length ? (
        <div className="danger-note" role="note">
          <strong>
            Look twice: {flagged.length} of these call{flagged.length === 1 ? '' : 's'} need{flagged.length === 1 ? 's' : ''} a second look.
          </strong>
          {flaggedList}
        </div>
      ) : null}
      {unseenLine}
      <p>Each card is answered as if alone; one that was answered meanwhile is reported, not repeated. {flagged.length ? 'The others:' : 'The calls:'}</p>
      <ul className="bulk-calls">
        {rest.slice(0, 8).map((i) => (
          <li key={i.id}>
            <code>{cardLabel(i)}</code>
          </li>
        ))}
        {rest.length > 8 ? <li className="muted">and {rest.length - 8} more</li> : null}
      </ul>
      {action === 'deny' ? (
        <label className="stack">
          Reason (optional, each agent reads it)
          <input className="input" value={reason} onChange={(e) => setReason(e.target.value)} maxLength={4096} />
        </label>
      ) : null}
    </ConfirmDialog>
  );
}
