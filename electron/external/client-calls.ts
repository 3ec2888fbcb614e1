// Gemini CLI's and OpenCode's tool calls, in the names and input keys NEXUS already reads for Claude Code, so
// the kernel's alias table, the rules and the card's diff work the same for every client. Pure: no I/O.
//
//   Gemini CLI  run_shell_command {command}                   → run_shell_command (the kernel's alias: bash)
//               write_file {file_path, content}               → Write  (→ write, `file_path` read as `path`)
//               replace {file_path, old_string, new_string}   → Edit   (→ edit)
//               read_file {file_path}                         → Read   (→ read)
//               mcp_<server>_<tool>                           → mcp__<server>__<tool> (Gemini's own split: the
//                                                               server name has no `_`, the tool name may)
//   OpenCode    bash {command, workdir, timeout}              → bash (NEXUS's own name already)
//               write {filePath, content}                     → Write {file_path, content}
//               edit {filePath, oldString, newString, replaceAll} → Edit {file_path, old_string, new_string, replace_all}
//               read {filePath, offset, limit}                → Read {file_path, …}
//               <server>_<tool> (its MCP tools)               → the same name (OpenCode does not mark them)
//   anything else → the same name and input, as for Claude Code.
import type { ClientName } from './tool-map.js';

export interface ClientCall {
  name: string;
  input: unknown;
}

const GEMINI: Readonly<Record<string, string>> = { write_file: 'Write', replace: 'Edit', read_file: 'Read' };
const OPENCODE: Readonly<Record<string, string>> = { write: 'Write', edit: 'Edit', read: 'Read' };
/** OpenCode's camelCase keys, as Claude Code spells them. */
const CAMEL: Readonly<Record<string, string>> = { filePath: 'file_path', oldString: 'old_string', newString: 'new_string', replaceAll: 'replace_all' };

const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** Gemini's MCP name `mcp_<server>_<tool>` as Claude Code's `mcp__<server>__<tool>`; null when it is not one. */
export function geminiMcpName(name: string): string | null {
  const m = /^mcp_([^_]+)_(.+)$/.exec(name);
  return m ? `mcp__${m[1]}__${m[2]}` : null;
}

export function clientCall(client: ClientName, name: string, input: unknown): ClientCall {
  if (client === 'gemini') {
    const mcp = geminiMcpName(name);
    if (mcp) return { name: mcp, input };
    return { name: GEMINI[name] ?? name, input };
  }
  if (client === 'opencode') {
    const renamed = OPENCODE[name];
    if (!renamed) return { name, input };
    if (!isObj(input)) return { name: renamed, input };
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(input)) out[CAMEL[k] ?? k] = v;
    return { name: renamed, input: out };
  }
  return { name, input };
}
