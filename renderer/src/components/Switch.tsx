// An accessible on/off switch: role=switch, its accessible name is exactly the visible label.
import { useId } from 'react';

interface Props {
  label: string;
  checked: boolean;
  onChange(next: boolean): void;
  description?: React.ReactNode;
  disabled?: boolean;
  busy?: boolean;
}

export function Switch({ label, checked, onChange, description, disabled, busy }: Props) {
  const id = useId();
  return (
    <div className="setting-row">
      <div className="setting-text">
        <span id={`${id}-label`} className="setting-label">
          {label}
        </span>
        {description ? (
          <div id={`${id}-desc`} className="setting-desc">
            {description}
          </div>
        ) : null}
      </div>
      <button
        type="button"
        role="switch"
        aria-checked={checked}
        aria-labelledby={`${id}-label`}
        aria-describedby={description ? `${id}-desc` : undefined}
        aria-busy={busy || undefined}
        disabled={disabled}
        className={`switch ${checked ? 'on' : 'off'}`}
        onClick={() => onChange(!checked)}
      >
        <span className="knob" aria-hidden="true" />
      </button>
    </div>
  );
}
