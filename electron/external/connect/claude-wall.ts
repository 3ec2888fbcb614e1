// Claude Code's own wall (DESIGN §7.3): a connected Claude Code runs its commands itself, outside NEXUS's sandbox,
// so `nexus connect claude-code` turns on Claude Code's sandbox beside the hook and keeps NEXUS's data dir (the
// socket, the person's credential, the database) out of its reach. Key names are Claude Code 2.1's settings
// schema. Pure: JSON in, JSON out; the prior values are returned so disconnect can put them back.

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);

/** `//abs/path/**`: Claude Code's permission-rule form of an absolute folder. */
const denyRules = (dataDir: string) => ['Read', 'Edit', 'Write'].map((t) => `${t}(/${dataDir}/**)`);

/** Each setting NEXUS sets, with why: `connect` prints these. */
export function claudeWall(dataDir: string): { path: string[]; value: unknown; why: string; merge?: true }[] {
  const rules = denyRules(dataDir);
  return [
    { path: ['sandbox', 'enabled'], value: true, why: "Claude Code's commands run in its own OS sandbox" },
    { path: ['sandbox', 'failIfUnavailable'], value: true, why: 'no sandbox, no commands (never a silent unsandboxed run)' },
    { path: ['sandbox', 'allowUnsandboxedCommands'], value: false, why: 'dangerouslyDisableSandbox is ignored: no way out of the sandbox' },
    { path: ['sandbox', 'network', 'allowAllUnixSockets'], value: false, why: 'no Unix sockets, so not NEXUS’s control socket' },
    { path: ['sandbox', 'network', 'allowUnixSockets'], value: [], why: 'no Unix socket is let through' },
    {
      path: ['sandbox', 'filesystem', 'denyRead'],
      value: [dataDir],
      why: "NEXUS's data dir (its credentials, socket and database) is unreadable to commands",
      merge: true,
    },
    { path: ['permissions', 'deny'], value: rules, why: "Claude Code's own Read/Edit/Write tools refuse NEXUS's data dir", merge: true },
  ];
}

const get = (o: Json, path: string[]): unknown => path.reduce<unknown>((v, k) => (isObj(v) ? v[k] : undefined), o);

function set(o: Json, path: string[], value: unknown): void {
  const [head, ...rest] = path;
  if (head === undefined) return;
  if (!rest.length) {
    o[head] = value;
    return;
  }
  const next: Json = isObj(o[head]) ? { ...o[head] } : {};
  o[head] = next;
  set(next, rest, value);
}

/** Remove the key; objects left empty by the removal were NEXUS's own, and go too. */
function unset(o: Json, path: string[]): void {
  const [head, ...rest] = path;
  if (head === undefined) return;
  if (!rest.length) {
    delete o[head];
    return;
  }
  const next = o[head];
  if (!isObj(next)) return;
  unset(next, rest);
  if (!Object.keys(next).length) delete o[head];
}

/** What a key held before connect: its value, or absent. */
export type Prior = { path: string[]; had: boolean; value?: unknown; added?: unknown[] }[];

/** The settings with the wall in (a deep copy): list values are added to the user's, never replace them. */
export function addClaudeWall(settings: Json, dataDir: string): { settings: Json; prior: Prior } {
  const out: Json = structuredClone(settings);
  const prior: Prior = [];
  for (const w of claudeWall(dataDir)) {
    const was = get(out, w.path);
    const p = was === undefined ? { path: w.path, had: false } : { path: w.path, had: true, value: structuredClone(was) };
    if (w.merge && Array.isArray(w.value)) {
      // A list is shared with the user: NEXUS adds its entries and, at disconnect, takes back only those.
      const have = Array.isArray(was) ? was : [];
      const added = w.value.filter((v) => !have.includes(v));
      prior.push({ ...p, added });
      set(out, w.path, [...have, ...added]);
      continue;
    }
    prior.push(p);
    const value = w.value;
    set(out, w.path, value);
  }
  return { settings: out, prior };
}

/** The settings with the wall taken back: each key as it was before connect. */
export function removeClaudeWall(settings: Json, prior: Prior): Json {
  const out: Json = structuredClone(settings);
  for (const p of [...prior].reverse()) {
    if (p.added) {
      const now = get(out, p.path);
      const kept = Array.isArray(now) ? now.filter((v) => !p.added?.includes(v)) : [];
      if (kept.length || p.had) set(out, p.path, kept);
      else unset(out, p.path);
    } else if (p.had) set(out, p.path, p.value);
    else unset(out, p.path);
  }
  return out;
}

/**
 * What is missing from the wall in Claude Code's effective settings (user, project, local: later wins for a
 * value, lists are merged), as a phrase, or null when it holds.
 */
export function claudeWallGap(sources: Json[], dataDir: string): string | null {
  const last = (path: string[]) => sources.reduce<unknown>((v, s) => (get(s, path) !== undefined ? get(s, path) : v), undefined);
  const all = (path: string[]) =>
    sources.flatMap((s) => {
      const v = get(s, path);
      return Array.isArray(v) ? v : [];
    });
  if (last(['sandbox', 'enabled']) !== true) return 'its sandbox is off';
  if (last(['sandbox', 'failIfUnavailable']) !== true) return 'its sandbox may fall back to running unsandboxed';
  if (last(['sandbox', 'allowUnsandboxedCommands']) !== false) return 'its commands may ask to run unsandboxed';
  if (last(['sandbox', 'network', 'allowAllUnixSockets']) === true || all(['sandbox', 'network', 'allowUnixSockets']).length)
    return 'its commands may open Unix sockets';
  if (!all(['sandbox', 'filesystem', 'denyRead']).includes(dataDir)) return "NEXUS's data dir is readable to its commands";
  const deny = all(['permissions', 'deny']);
  if (!denyRules(dataDir).every((r) => deny.includes(r))) return "its Read, Edit and Write tools may open NEXUS's data dir";
  return null;
}
