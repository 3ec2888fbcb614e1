// The agent editor's plain logic (unit-tested): API error messages in the form's words.
/** The API names fields by their JSON path ("model.baseURL: Invalid URL"); the form's labels say it better. */
const FIELD_LABEL: [RegExp, string][] = [
  [/(^|; )model\.baseURL:/g, '$1Base URL:'],
  [/(^|; )model\.model:/g, '$1Model:'],
  [/(^|; )model\.apiKeyEnv:/g, '$1API key variable:'],
  [/(^|; )model\.provider:/g, '$1Provider:'],
  [/(^|; )name:/g, '$1Name:'],
  [/(^|; )workspace:?/g, '$1Workspace folder:'],
  [/(^|; )instructions:/g, '$1Instructions:'],
];
export const fieldNames = (message: string): string => FIELD_LABEL.reduce((m, [re, label]) => m.replace(re, label), message);

/** What a refused save means in the editor: "New agent" on a taken name (the kernel refused to overwrite that
 *  agent's model, rules and instructions), or an edit of an agent removed meanwhile (not brought back). */
export function saveFailure(code: string | null, name: string): string | null {
  if (code === 'conflict') return `An agent named ${name} already exists. Open it from the list to change it, or choose another name: nothing was saved.`;
  if (code === 'not_found') return `The agent ${name} no longer exists (it was removed, perhaps in another window): nothing was saved. Create it again with New agent.`;
  return null;
}
