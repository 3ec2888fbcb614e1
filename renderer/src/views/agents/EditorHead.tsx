// The agent editor's head: the agent's name, Remove, and Save with the reason it cannot save yet.
interface Props {
  title: string;
  /** Only a saved agent has something to remove. */
  removable: boolean;
  onRemove(): void;
  rulesValid: boolean;
  /** The name typed so far (Save needs one). */
  name: string;
  saving: boolean;
}

export function EditorHead({ title, removable, onRemove, rulesValid, name, saving }: Props) {
  return (
    <header className="page-head row">
      <h1>{title}</h1>
      <div className="inline-form">
        {removable ? (
          <button type="button" className="btn danger-outline" onClick={onRemove}>
            Remove
          </button>
        ) : null}
        {/* The greyed-out Save said nothing about why; the errors are far below, under Rules. */}
        {!rulesValid ? (
          <span className="field-error" role="status">
            Fix the rule list below to save.
          </span>
        ) : !name.trim() ? (
          <span className="muted" role="status">
            Name the agent to save it.
          </span>
        ) : null}
        <button type="submit" className="btn primary" disabled={saving || !rulesValid || !name}>
          {saving ? 'Saving…' : 'Save'}
        </button>
      </div>
    </header>
  );
}
