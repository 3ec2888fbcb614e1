// Connect and disconnect, for the CLI (`nexus connect …`) and the window (Settings ▸ Connections): which file,
// what it will look like (shown before anything is written), and the write itself (atomic; the file's mode kept).
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { createTwoFilesPatch } from 'diff';
import { DEFAULT_TIMEOUT_S, dataDirOf, type HookSpec } from './hook-command.js';
import { claudeHookCommands, planClaudeSettings } from './claude-settings.js';
import { codexHookCommands, parseCodexConfig, planCodexConfig, trustKeys, withoutBlock } from './codex-config.js';
import { codexHookHashes, findCodex } from './codex-trust.js';
import { geminiHookCommands, planGeminiSettings } from './gemini-settings.js';
import { OPENCODE_PLUGIN_FILE, opencodeHookCommands, opencodePlugin } from './opencode-plugin.js';
import { claudeWall, type Prior } from './claude-wall.js';
import { readWallRecord, removeWallRecord, writeWallRecord } from './wall-record.js';

export type Client = 'claude-code' | 'codex' | 'gemini' | 'opencode';
export type Scope = 'user' | 'project';

export interface ConnectTarget {
  client: Client;
  scope: Scope;
  /** scope project: the project folder (absolute). */
  project?: string;
  dataDir: string;
  timeoutS?: number;
  whenDown?: 'deny' | 'ask';
  env?: NodeJS.ProcessEnv;
  /** The codex binary used to hash the hook for trust (else found: see codex-trust.ts). */
  codexBin?: string;
}

export interface Plan {
  client: Client;
  scope: Scope;
  file: string;
  action: 'connect' | 'disconnect';
  before: string;
  after: string;
  diff: string;
  changed: boolean;
  notes: string[];
  /** Claude Code, connect: the wall keys' prior values (what disconnect puts back). */
  prior?: Prior;
}

const home = (env: NodeJS.ProcessEnv) => env.HOME || homedir();
export const codexHome = (env: NodeJS.ProcessEnv) => env.CODEX_HOME || join(home(env), '.codex');

export function settingsFile(t: Pick<ConnectTarget, 'client' | 'scope' | 'project' | 'env'>): string {
  const env = t.env ?? process.env;
  if (t.client === 'codex') {
    if (t.scope === 'project')
      throw new Error(
        "Codex is connected for the user (its config.toml in CODEX_HOME): Codex loads a project's hooks only from trusted projects. Leave out --project.",
      );
    return join(codexHome(env), 'config.toml');
  }
  const project = t.scope === 'project' ? t.project : undefined;
  if (t.scope === 'project' && (!project || !isAbsolute(project))) throw new Error('--project needs an absolute folder.');
  if (t.client === 'gemini') return join(project ?? home(env), '.gemini', 'settings.json');
  if (t.client === 'opencode')
    return project
      ? join(project, '.opencode', 'plugin', OPENCODE_PLUGIN_FILE)
      : join(env.XDG_CONFIG_HOME || join(home(env), '.config'), 'opencode', 'plugin', OPENCODE_PLUGIN_FILE);
  if (t.scope === 'project') {
    if (!t.project || !isAbsolute(t.project)) throw new Error('--project needs an absolute folder.');
    if (!existsSync(t.project) || !statSync(t.project).isDirectory()) throw new Error(`--project ${t.project} is not a folder.`);
    return join(t.project, '.claude', 'settings.json');
  }
  return join(home(env), '.claude', 'settings.json');
}

/**
 * dist/hook/nexus-hook.mjs of this NEXUS: searched upwards from the running bundle (the Electron main's
 * __dirname), from the started script (bin/nexus.cjs), then from the working folder. (No import.meta here:
 * this file is bundled into the CommonJS Electron main too.)
 */
export function hookScript(env: NodeJS.ProcessEnv = process.env): string {
  if (env.NEXUS_HOOK_SCRIPT) return env.NEXUS_HOOK_SCRIPT;
  const starts = [typeof __dirname !== 'undefined' ? __dirname : null, process.argv[1] ? dirname(process.argv[1]) : null, process.cwd()];
  for (const start of starts) {
    let dir = start;
    for (let i = 0; dir && i < 6; i++) {
      for (const p of [join(dir, 'hook', 'nexus-hook.mjs'), join(dir, 'dist', 'hook', 'nexus-hook.mjs')]) if (existsSync(p)) return unpacked(p);
      dir = dirname(dir);
    }
  }
  throw new Error('The NEXUS hook (dist/hook/nexus-hook.mjs) was not found: build NEXUS first (npm run build).');
}

/** In a packaged app the hook is unpacked next to the archive (electron-builder asarUnpack): a client runs that copy. */
const unpacked = (p: string) => {
  const out = p.replace(/app\.asar([\\/])/, 'app.asar.unpacked$1');
  return out !== p && existsSync(out) ? out : p;
};

export function specFor(t: ConnectTarget): HookSpec {
  const env = t.env ?? process.env;
  // Inside Electron, process.execPath is the app: it runs a script as Node with ELECTRON_RUN_AS_NODE.
  const node = process.versions.electron ? `ELECTRON_RUN_AS_NODE=1 ${process.execPath}` : process.execPath;
  return { node, script: hookScript(env), dataDir: t.dataDir, timeoutS: t.timeoutS ?? DEFAULT_TIMEOUT_S, whenDown: t.whenDown ?? 'deny' };
}

const read = (file: string): string | null => (existsSync(file) ? readFileSync(file, 'utf8') : null);

export function plan(t: ConnectTarget, action: 'connect' | 'disconnect', trust: Record<string, string> = {}): Plan {
  const file = settingsFile(t);
  const before = read(file);
  const spec = specFor(t);
  const notes: string[] = [];
  let after: string;
  let prior: Prior | undefined;
  if (t.client === 'claude-code') {
    const rec = readWallRecord(t.dataDir, t.client, file);
    const planned = planClaudeSettings(before, file, action, spec, rec);
    after = planned.after;
    if (planned.prior) prior = planned.prior;
    if (action === 'connect') {
      notes.push(
        `Claude Code will ask NEXUS before every tool call (PreToolUse; PermissionRequest where it fires), waiting up to ${spec.timeoutS} s for a person.`,
      );
      // Its commands run outside NEXUS's sandbox: Claude Code's own sandbox is their wall (DESIGN §7.3).
      for (const w of claudeWall(spec.dataDir)) notes.push(`${w.path.join('.')} = ${JSON.stringify(w.value)}: ${w.why}.`);
    } else if (!rec) notes.push('No record of what connect wrote beyond the hook was found, so only the hook entries are taken out.');
    else notes.push('The sandbox settings connect wrote are given back their earlier values.');
  } else if (t.client === 'gemini') {
    after = planGeminiSettings(before, file, action, spec);
    if (action === 'connect')
      notes.push(
        `Gemini CLI will ask NEXUS before every tool call (BeforeTool), waiting up to ${spec.timeoutS} s for a person (its hook timeout is ${spec.timeoutS * 1000} ms; NEXUS answers before it, because Gemini runs a call whose hook timed out).`,
      );
  } else if (t.client === 'opencode') {
    after = action === 'connect' ? opencodePlugin(spec) : '';
    if (action === 'connect')
      notes.push(
        `OpenCode will load this plugin, which asks NEXUS before every tool call (tool.execute.before) and blocks it unless NEXUS allows it, waiting up to ${spec.timeoutS} s for a person.`,
      );
  } else {
    after = planCodexConfig(before, file, action, spec, trust);
    if (action === 'connect' && !Object.keys(trust).length) {
      const keys = trustKeys(file, parseCodexConfig(withoutBlock(before ?? ''), file));
      notes.push(
        `Codex skips hooks it has not trusted: after writing, NEXUS asks codex app-server for the hooks' hashes and records them under [hooks.state] (${keys.join(', ')}).`,
      );
    }
  }
  if (action === 'connect' && t.client !== 'opencode') notes.push(sessionEndNote(t.client));
  if (action === 'connect' && spec.whenDown === 'deny')
    notes.push("When NEXUS is not running, every tool call is denied with a sentence saying so (--when-down ask hands it to the client's own prompt instead).");
  const b = before ?? '';
  return {
    client: t.client,
    scope: t.scope,
    file,
    action,
    before: b,
    after,
    diff: createTwoFilesPatch(file, file, b, after, 'now', 'after'),
    changed: b !== after,
    notes,
    ...(prior ? { prior } : {}),
  };
}

function writeAtomic(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  const mode = existsSync(file) ? statSync(file).mode & 0o777 : 0o600;
  const tmp = `${file}.nexus-${process.pid}.tmp`;
  writeFileSync(tmp, text, { mode });
  chmodSync(tmp, mode);
  renameSync(tmp, file);
}

/** Write the plan; for Codex, then ask Codex for the hooks' hashes and record their trust. */
export async function apply(t: ConnectTarget, action: 'connect' | 'disconnect'): Promise<Plan> {
  const p = plan(t, action);
  if (t.client === 'claude-code') return applyClaude(t, p);
  // OpenCode's plugin is NEXUS's own file: disconnect removes it.
  if (t.client === 'opencode' && action === 'disconnect') rmSync(p.file, { force: true });
  else if (p.changed) writeAtomic(p.file, p.after);
  if (t.client !== 'codex' || action !== 'connect') return p;
  const codex = findCodex(t.codexBin, t.env ?? process.env, join(dirname(hookScript(t.env ?? process.env)), '..', '..'));
  if (!codex) {
    p.notes.push(
      'Codex was not found, so the hook is NOT trusted yet and Codex will skip it: run `nexus connect codex` again once codex is installed (or pass --codex PATH), or start codex with --dangerously-bypass-hook-trust.',
    );
    return p;
  }
  const hashes = await codexHookHashes(codex, dirname(p.file));
  if (!Object.keys(hashes).length) throw new Error(`codex app-server did not list NEXUS's hook in ${p.file}; it is written but not trusted.`);
  const trusted = plan(t, 'connect', hashes);
  writeAtomic(trusted.file, trusted.after);
  return {
    ...trusted,
    before: p.before,
    diff: createTwoFilesPatch(p.file, p.file, p.before, trusted.after, 'before', 'after'),
    changed: true,
    notes: [...p.notes.slice(1), `Codex trusts the hooks: ${Object.keys(hashes).join(', ')}.`],
  };
}

/** Claude Code: write the file and keep (or, at disconnect, drop) the record of the wall's prior values. */
function applyClaude(t: ConnectTarget, p: Plan): Plan {
  const rec = readWallRecord(t.dataDir, t.client, p.file);
  const existed = existsSync(p.file);
  if (p.action === 'disconnect') {
    // The file did not exist before connect and is as connect left it: it goes, as it came.
    if (rec && rec.before === null && existed && p.before === rec.after) unlinkSync(p.file);
    else if (p.changed) writeAtomic(p.file, p.after);
    removeWallRecord(t.dataDir, t.client, p.file);
    return p;
  }
  if (p.changed) writeAtomic(p.file, p.after);
  // The original text is kept for a byte-for-byte disconnect only while the file is still as NEXUS left it.
  const before = rec ? (p.before === rec.after ? rec.before : undefined) : existed ? p.before : null;
  const prior = p.prior ?? [];
  writeWallRecord(t.dataDir, t.client, { file: p.file, after: p.after, prior, ...(before !== undefined ? { before } : {}) });
  return p;
}

export interface ConnectionStatus {
  client: Client;
  scope: Scope;
  file: string;
  connected: boolean;
  here: boolean;
  note?: string;
}

export function status(t: Pick<ConnectTarget, 'client' | 'scope' | 'project' | 'env' | 'dataDir'>): ConnectionStatus {
  const file = settingsFile(t);
  const text = read(file);
  const cmds =
    t.client === 'claude-code'
      ? claudeHookCommands(text)
      : t.client === 'gemini'
        ? geminiHookCommands(text)
        : t.client === 'opencode'
          ? opencodeHookCommands(text)
          : codexHookCommands(text);
  const dirs = cmds.map(dataDirOf);
  const here = dirs.includes(t.dataDir);
  const note = cmds.length && !here ? `connected to another NEXUS data dir (${dirs.filter(Boolean).join(', ')})` : undefined;
  return { client: t.client, scope: t.scope, file, connected: cmds.length > 0, here, ...(note ? { note } : {}) };
}

/** The SessionEnd hook connect installs beside the tool hooks. */
const sessionEndNote = (client: Client) =>
  `${client === 'codex' ? 'Codex' : client === 'gemini' ? 'Gemini CLI' : 'Claude Code'} will tell NEXUS when a session ends (SessionEnd), so its run ends; a session with no call for clients.idleMinutes (30 by default) ends too.`;
