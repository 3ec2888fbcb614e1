// A client's tool call, as the calls NEXUS's stage judges (the documented table is in README.md here):
//
//   Claude Code / Codex `Bash` {command}         → bash {command}
//   Claude Code `Read` / `Write` / `Edit`         → read / write / edit, `file_path` read as `path`
//   Codex `apply_patch` {command: "*** Begin Patch…"} → one call per file it touches: `write` for an added file,
//                                                   `edit` for an updated, deleted or moved one, {path, patch}
//   `mcp__server__tool`                           → the same name (the MCP tool; rules name it as it is)
//   anything else (Glob, Grep, WebFetch, Task…)    → the same name, input as sent
//
// Why a patch becomes several calls: a rule reads ONE path. A patch touching `src/a.ts` and `/etc/hosts` judged
// as one call under the first path would let an allow for `src/*` through for both. Each file crosses the stage
// on its own, and the hook allows the patch only if every file is allowed.
// Pure: no I/O. The kernel's alias table (shared/rules/tool-names.ts) does the renames for Bash/Read/Write/Edit.

export type ClientName = 'claude-code' | 'codex' | 'gemini' | 'opencode';
export const CLIENTS: readonly ClientName[] = ['claude-code', 'codex', 'gemini', 'opencode'];

export interface MappedCall {
  /** The wire name the row records (resolved by the kernel's aliases before the rules match). */
  tool: string;
  input: unknown;
  /** For a patch: this file's part of it (the card shows it as the diff). */
  diff?: string;
}

export type MapResult = { ok: true; calls: MappedCall[] } | { ok: false; reason: string };

const MAX_FILES = 64;

export function mapToolCall(toolName: string, toolInput: unknown): MapResult {
  if (toolName === 'apply_patch') {
    const text = patchText(toolInput);
    if (text === null) return { ok: false, reason: 'apply_patch carried no patch text NEXUS could read.' };
    const files = splitPatch(text);
    if (!files.length)
      return { ok: false, reason: 'apply_patch named no file NEXUS could read (expected "*** Add File:", "*** Update File:" or "*** Delete File:").' };
    if (files.length > MAX_FILES) return { ok: false, reason: `apply_patch touches ${files.length} files; NEXUS judges at most ${MAX_FILES} in one call.` };
    const calls: MappedCall[] = [];
    for (const f of files) {
      calls.push({ tool: f.kind === 'add' ? 'write' : 'edit', input: { path: f.path, action: f.kind, patch: f.body }, diff: f.body });
      // A move writes a second path: that one crosses the stage as a write of its own.
      if (f.moveTo) calls.push({ tool: 'write', input: { path: f.moveTo, action: 'move', from: f.path, patch: f.body }, diff: f.body });
    }
    return { ok: true, calls };
  }
  return { ok: true, calls: [{ tool: toolName, input: toolInput ?? {} }] };
}

function patchText(input: unknown): string | null {
  if (typeof input === 'string') return input;
  if (input && typeof input === 'object' && !Array.isArray(input)) {
    for (const k of ['command', 'patch', 'input']) {
      const v = (input as Record<string, unknown>)[k];
      if (typeof v === 'string') return v;
    }
  }
  return null;
}

export interface PatchFile {
  kind: 'add' | 'update' | 'delete';
  path: string;
  moveTo?: string;
  /** The file's section of the patch, header included. */
  body: string;
}

const HEADER = /^\*\*\* (Add|Update|Delete) File: (.+)$/;

/** The files of a Codex patch (`*** Begin Patch` … `*** End Patch`), each with its own section. */
export function splitPatch(text: string): PatchFile[] {
  const files: PatchFile[] = [];
  let cur: { kind: PatchFile['kind']; path: string; moveTo?: string; lines: string[] } | null = null;
  const close = () => {
    if (cur) files.push({ kind: cur.kind, path: cur.path, ...(cur.moveTo ? { moveTo: cur.moveTo } : {}), body: cur.lines.join('\n') });
    cur = null;
  };
  for (const line of text.split(/\r?\n/)) {
    const m = HEADER.exec(line);
    if (m) {
      close();
      cur = { kind: m[1]!.toLowerCase() as PatchFile['kind'], path: m[2]!.trim(), lines: [line] };
      continue;
    }
    if (line.startsWith('*** End Patch') || line.startsWith('*** Begin Patch')) {
      close();
      continue;
    }
    if (!cur) continue;
    const move = /^\*\*\* Move to: (.+)$/.exec(line);
    if (move) cur.moveTo = move[1]!.trim();
    cur.lines.push(line);
  }
  close();
  return files;
}
