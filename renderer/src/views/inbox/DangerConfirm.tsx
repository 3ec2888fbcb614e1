// The second look before approving a call the danger classifier flags: the call, what was found, and how to go
// on or back. The Inbox's own cards and the desk's cards of other machines ask it the same way.
import { ConfirmDialog } from '../../components/ConfirmDialog.js';
import type { DangerFinding } from '../../../../shared/inbox/danger.js';

interface Props {
  /** The call as one line (tool and target). */
  call: string;
  /** The machine it runs on, for a desk card of another machine. */
  machine?: string;
  findings: DangerFinding[];
  /** Where Escape returns to, said after "go back" (e.g. "to the card"). */
  backTo?: string;
  onConfirm(): void;
  onCancel(): void;
}

export function DangerConfirm({ call, machine, findings, backTo, onConfirm, onCancel }: Props) {
  return (
    <ConfirmDialog title="Approve a call that needs a second look?" confirmLabel="Approve anyway" danger onConfirm={onConfirm} onCancel={onCancel}>
      <p>
        <code>{call}</code>
        {machine !== undefined ? <> runs on {machine}.</> : null}
      </p>
      <ul>
        {findings.map((f) => (
          <li key={f.kind}>{f.message}</li>
        ))}
      </ul>
      <p>Press Enter to approve it, Escape to go back{backTo ? ` ${backTo}` : ''}.</p>
    </ConfirmDialog>
  );
}
