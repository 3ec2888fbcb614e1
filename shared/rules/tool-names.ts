// Wire name -> the tool rules match (seed 000: "Matching uses the resolved execution name and input keys after
// kernel-alias and Runner-route resolution"; DESIGN §2 "Tool names"). Two steps, in this order:
//
// 1. Kernel aliases: the names other agent harnesses use for our built-in tools. A model trained on Claude
//    Code calls `Bash` or `Read`; on Codex `shell` or `exec_command`. The alias applies to the WHOLE wire name,
//    exactly (case-sensitive). Some aliases also rename input keys so rules read one shape: Claude Code's
//    `file_path` is our `path`, Codex's `cmd` is our `command`.
// 2. Runner routes: `NAME__<exactly 12 lowercase hex>` is the tool NAME served by the runner with that id. The
//    rule sees NAME; the row keeps the runner id. NAME is taken as served: an MCP server's own `Bash` is not
//    the kernel's bash, so no alias applies to a routed name.
//
// The kernel must EXECUTE the resolved input (`resolveInput`), so what the rules read is what runs.

export interface AliasEntry {
  /** The built-in tool it names. */
  readonly name: string;
  /** Top-level input keys renamed: wire key -> our key. */
  readonly renames: Readonly<Record<string, string>> | null;
}

/** The documented kernel-alias table. Small on purpose: every entry is a name some harness really emits. */
export const KERNEL_ALIASES: Readonly<Record<string, AliasEntry>> = Object.freeze({
  Bash: { name: 'bash', renames: null }, // Claude Code: { command, timeout }
  Read: { name: 'read', renames: { file_path: 'path' } }, // Claude Code: { file_path, offset, limit }
  Write: { name: 'write', renames: { file_path: 'path' } }, // Claude Code: { file_path, content }
  Edit: { name: 'edit', renames: { file_path: 'path' } }, // Claude Code: { file_path, old_string, new_string }
  LS: { name: 'list', renames: null }, // Claude Code: { path }
  shell: { name: 'bash', renames: null }, // Codex: { command: ["bash", "-lc", "…"] } (an argv: rules read it joined)
  exec_command: { name: 'bash', renames: { cmd: 'command' } }, // Codex: { cmd }
  run_shell_command: { name: 'bash', renames: null }, // Gemini CLI: { command }
});

export interface ResolvedTool {
  /** The name rules match: the execution name. */
  readonly name: string;
  /** The runner serving it (the 12-hex id of a `NAME__<id>` route), or null for a kernel tool. */
  readonly runner: string | null;
  /** The kernel alias the wire name was, or null. */
  readonly alias: string | null;
  /** Input keys to rename before matching and execution (from the alias), or null. */
  readonly renames: Readonly<Record<string, string>> | null;
}

const isLowerHex = (c: number) => (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66);

/** Splits `NAME__<12 lowercase hex>`; null when the wire name is not a runner route. */
function runnerRoute(wire: string): { name: string; runner: string } | null {
  const n = wire.length;
  if (n < 15 || wire.charCodeAt(n - 13) !== 0x5f || wire.charCodeAt(n - 14) !== 0x5f) return null;
  for (let i = n - 12; i < n; i++) if (!isLowerHex(wire.charCodeAt(i))) return null;
  return { name: wire.slice(0, n - 14), runner: wire.slice(n - 12) };
}

export function resolveToolName(wire: string): ResolvedTool {
  if (typeof wire !== 'string') return { name: '', runner: null, alias: null, renames: null };
  if (Object.hasOwn(KERNEL_ALIASES, wire)) {
    const a = KERNEL_ALIASES[wire];
    return { name: a.name, runner: null, alias: wire, renames: a.renames };
  }
  const route = runnerRoute(wire);
  if (route) return { name: route.name, runner: route.runner, alias: null, renames: null };
  return { name: wire, runner: null, alias: null, renames: null };
}

/**
 * The input as rules read it and the tool runs it: the alias's key renames applied to a top-level object.
 * When both the wire key and our key are present, ours wins and the wire key is dropped, so there is one value.
 * Anything else (no renames, not a plain object) is returned as is, never copied.
 */
export function resolveInput(resolved: ResolvedTool, input: unknown): unknown {
  const renames = resolved.renames;
  if (!renames || typeof input !== 'object' || input === null || Array.isArray(input)) return input;
  const src = input as Record<string, unknown>;
  let touched = false;
  for (const k in renames) if (Object.hasOwn(src, k)) touched = true;
  if (!touched) return input;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(src)) {
    const to = Object.hasOwn(renames, k) ? renames[k] : null;
    if (to === null) put(out, k, src[k]);
    else if (!Object.hasOwn(src, to)) put(out, to, src[k]);
  }
  return out;
}

// defineProperty, not assignment: a key named `__proto__` must stay data, never become the prototype.
const put = (o: Record<string, unknown>, k: string, value: unknown) =>
  Object.defineProperty(o, k, { value, enumerable: true, writable: true, configurable: true });
