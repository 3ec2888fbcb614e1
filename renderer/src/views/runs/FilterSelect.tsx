// One filter of the Runs list: a labelled select whose first option ("All …") clears it.
export interface FilterOption {
  value: string;
  label: string;
}

interface Props {
  /** Said above the select and its accessible name. */
  label: string;
  /** The first option's words, e.g. "All agents": choosing it clears the filter. */
  all: string;
  value: string | undefined;
  options: readonly FilterOption[];
  /** The chosen option's value; '' for the "All …" one. */
  onChange(value: string): void;
}

export function FilterSelect({ label, all, value, options, onChange }: Props) {
  return (
    <label>
      <span className="small muted">{label}</span>
      <select className="input small" aria-label={label} value={value ?? ''} onChange={(e) => onChange(e.target.value)}>
        <option value="">{all}</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </label>
  );
}
