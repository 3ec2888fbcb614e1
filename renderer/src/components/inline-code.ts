// `backticked` spans in guidance text as code: the Models page showed its commands with literal backticks.
export type Segment = { code: boolean; text: string };
export function inlineCode(text: string): Segment[] {
  return text
    .split(/(`[^`]+`)/)
    .filter(Boolean)
    .map((part) => (part.length > 1 && part.startsWith('`') && part.endsWith('`') ? { code: true, text: part.slice(1, -1) } : { code: false, text: part }));
}
