// Who decided, in words: approved_by / resolved_by / answered_by hold `person:<door>`, the door the person used.
// Shared by the window's run detail and the `nexus runs show` output so both say the same thing.

const DOOR_WORDS: Record<string, string> = {
  window: 'in the app window',
  browser: 'in the browser',
  cli: 'with the nexus command',
  internal: 'inside NEXUS',
  // As recorded before the doors were named for people.
  ipc: 'in the app window',
  web: 'in the browser',
  socket: 'with the nexus command',
};

/** `person:cli` → "you with the nexus command"; anything else is shown as it is. */
export function decidedBy(by: string): string {
  const m = /^person:(.+)$/.exec(by);
  if (!m) return by;
  return `you ${DOOR_WORDS[m[1]!] ?? `(${m[1]})`}`;
}
