/** The largest API message any door accepts (a socket line, a WebSocket frame, an IPC input, a JSON file the
 *  CLI sends): one bound for every door, so what one door takes another never refuses. The rule envelope is
 *  64 KiB; an agent file with its MCP servers and hooks fits with room to spare. */
export const MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

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

const STAGE_WORDS: Record<string, string> = {
  mode: 'granted by the mode',
  rule: 'granted by a rule',
  origin: 'granted by origin',
  trust: 'granted by session trust',
};

/**
 * Who let a row through, in words. A row a person approved at its park reads "approved by you …"; a hop a
 * person approved at its orchestration hold, then granted by the stage, says both.
 */
export function grantWords(r: { approved_by?: string | null; granted_by?: string | null }): string {
  const stage = r.granted_by ? STAGE_WORDS[r.granted_by] : undefined;
  if (r.approved_by) return stage ? `hop approved by ${decidedBy(r.approved_by)}; ${stage}` : `approved by ${decidedBy(r.approved_by)}`;
  if (r.granted_by === 'person') return 'approved by you';
  return stage ?? '';
}
