// The agent editor's plain logic (unit-tested): API error messages in the form's words, and the name check
// that keeps "New agent" from replacing an existing profile.
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


/** agentsSave replaces a profile of the same name; "New agent" must not (it would overwrite model, rules and
 *  instructions with a blank form). */
export const nameTaken = (agents: readonly { name: string }[], name: string): boolean => agents.some((a) => a.name === name.trim());
