// The agent editor's plain logic (unit-tested): a refused save's problems put next to the fields they name,
// and what a refused create or replace means.
import type { ErrorDetail } from '../../../../shared/api/contract.js';

/** The form's fields that can show a problem of their own. */
export type FormField = 'name' | 'provider' | 'baseURL' | 'model' | 'apiKeyEnv' | 'workspace' | 'network' | 'instructions' | 'tools' | 'rules';

/** Which field a detail's path belongs to (the first prefix that matches), and the field's label. */
const FIELDS: { prefix: string; field: FormField; label: string }[] = [
  { prefix: 'name', field: 'name', label: 'Name' },
  { prefix: 'model.provider', field: 'provider', label: 'Provider' },
  { prefix: 'model.baseURL', field: 'baseURL', label: 'Base URL' },
  { prefix: 'model.model', field: 'model', label: 'Model' },
  { prefix: 'model.apiKeyEnv', field: 'apiKeyEnv', label: 'API key variable' },
  { prefix: 'workspace', field: 'workspace', label: 'Workspace folder' },
  { prefix: 'network', field: 'network', label: 'Network' },
  { prefix: 'instructions', field: 'instructions', label: 'Instructions' },
  { prefix: 'tools', field: 'tools', label: 'Tools' },
  { prefix: 'approval_rules', field: 'rules', label: 'Rules' },
];

const fieldOf = (path: string) => FIELDS.find((f) => path === f.prefix || path.startsWith(`${f.prefix}.`));

export interface FormErrors {
  /** Each field's problems, in the words of the API, to show beside the field. */
  fields: Partial<Record<FormField, string>>;
  /** The whole refusal in one line, each problem led by its field's label (or its path, for a field the form lacks). */
  summary: string;
}

/** A refused save as the form shows it. Without details (a conflict, a lost connection) the message alone. */
export function formErrors(message: string, details: readonly ErrorDetail[] | undefined): FormErrors {
  if (!details?.length) return { fields: {}, summary: message };
  const fields: Partial<Record<FormField, string>> = {};
  const parts = details.map((d) => {
    const f = fieldOf(d.path);
    if (!f) return `${d.path}: ${d.message}`;
    fields[f.field] = fields[f.field] ? `${fields[f.field]}; ${d.message}` : d.message;
    return `${f.label}: ${d.message}`;
  });
  return { fields, summary: parts.join('; ') };
}

/** The id of the element holding a field's problem (what its input's aria-describedby names). */
export const errorId = (field: FormField): string => `agent-${field}-error`;

/** What a refused save means in the editor: "New agent" on a taken name (the kernel refused to overwrite that
 *  agent's model, rules and instructions), or an edit of an agent removed meanwhile (not brought back). */
export function saveFailure(code: string | null, name: string): string | null {
  if (code === 'conflict') return `An agent named ${name} already exists. Open it from the list to change it, or choose another name: nothing was saved.`;
  if (code === 'not_found')
    return `The agent ${name} no longer exists (it was removed, perhaps in another window): nothing was saved. Create it again with New agent.`;
  return null;
}
