// Removing an agent, confirmed first: it says what removal does to the agent's credentials and runs.
import { useAgents } from '../../stores/agents.js';
import { ConfirmDialog } from '../../components/ConfirmDialog.js';
import { errorMessage } from '../../../../shared/errors.js';

interface Props {
  name: string;
  /** Closes the dialog (also before removing). */
  onCancel(): void;
  /** The removal was refused: the editor shows why. */
  onFailed(text: string): void;
}

export function RemoveAgentDialog({ name, onCancel, onFailed }: Props) {
  const remove = useAgents((s) => s.remove);
  const edit = useAgents((s) => s.edit);
  return (
    <ConfirmDialog
      title={`Remove ${name}?`}
      confirmLabel="Remove agent"
      danger
      onCancel={onCancel}
      onConfirm={async () => {
        onCancel();
        try {
          await remove(name);
          edit(null);
        } catch (e) {
          onFailed(errorMessage(e));
        }
      }}
    >
      <p>Its credentials are fenced, its runs are force-stopped and their waiting calls are canceled.</p>
    </ConfirmDialog>
  );
}
