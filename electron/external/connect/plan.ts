// Connect and disconnect, for the CLI (`nexus connect …`) and the window (Settings ▸ Connections): which file,
// what it will look like (shown before anything is written), and the write itself (atomic; the file's mode kept).
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createTwoFilesPatch } from 'diff';
import { dataDirOf } from './hook-command.js';
import { hookScript, settingsFile, specFor, type Client, type ConnectTarget, type Scope } from './target.js';
import { claudeHookCommands, planClaudeSettings } from './claude-settings.js';
import { codexHookCommands, parseCodexConfig, planCodexConfig, trustKeys, withoutNexus } from './codex-config.js';
import { baseProfile, codexWall, overridingProfile } from './codex-wall.js';
import { codexHookHashes, findCodex } from './codex-trust.js';
import { geminiHookCommands, planGeminiSettings } from './gemini-settings.js';
import { opencodeHookCommands, opencodePlugin } from './opencode-plugin.js';
import { claudeWall, type Prior } from './claude-wall.js';
import { readWallRecord, removeWallRecord, wallDirs, writeWallRecord } from './wall-record.js';

export { codexHome, hookScript, settingsFile, specFor, type Client, type ConnectTarget, type Scope } from './target.js';

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

const UNTRUSTED = 'Codex skips hooks it has not trusted';
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
    const rec = readWallRecord(t.dataDir, t.client, file);
    const dirs = wallDirs(spec.dataDir);
    after = planCodexConfig(before, file, action, spec, trust, dirs, rec);
    if (action === 'connect') {
      notes.push(`Codex will ask NEXUS before every tool call (PreToolUse; PermissionRequest where it asks), waiting up to ${spec.timeoutS} s for a person.`);
      // Its commands run outside NEXUS's sandbox: Codex's own sandbox is their wall (DESIGN §7.3).
      const person = parseCodexConfig(withoutNexus(before ?? ''), file);
      for (const w of codexWall(dirs, baseProfile(person))) notes.push(`${w.key} = ${w.value}: ${w.why}.`);
      const over = overridingProfile(person);
      if (over)
        notes.push(
          `Your config profile "${over}" sets sandbox_mode, which makes Codex ignore NEXUS's profile: while it is selected NEXUS refuses Codex's calls. Remove sandbox_mode from [profiles.${over}].`,
        );
      if (after.includes('# set aside by `nexus connect codex`'))
        notes.push(
          'Your own sandbox_mode / approval_policy / default_permissions lines are kept as comments while connected (they would override the profile); disconnect puts them back.',
        );
    } else if (rec) notes.push('The sandbox settings connect wrote are taken out, and your own lines it set aside are put back.');
    if (action === 'connect' && !Object.keys(trust).length) {
      const keys = trustKeys(file, parseCodexConfig(withoutNexus(before ?? ''), file));
      notes.push(`${UNTRUSTED}: after writing, NEXUS asks codex app-server for the hooks' hashes and records them under [hooks.state] (${keys.join(', ')}).`);
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
  if (t.client === 'claude-code') return applyWalled(t, p);
  if (t.client === 'codex' && action === 'disconnect') return applyWalled(t, p);
  // OpenCode's plugin is NEXUS's own file: disconnect removes it.
  const existed = existsSync(p.file);
  if (t.client === 'opencode' && action === 'disconnect') rmSync(p.file, { force: true });
  else if (p.changed) writeAtomic(p.file, p.after);
  if (t.client !== 'codex' || action !== 'connect') return p;
  // Whatever happens next, the file now holds the wall: disconnect must be able to take it back.
  let written = p.after;
  try {
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
    written = trusted.after;
    return {
      ...trusted,
      before: p.before,
      diff: createTwoFilesPatch(p.file, p.file, p.before, trusted.after, 'before', 'after'),
      changed: true,
      notes: [...p.notes.filter((n) => !n.startsWith(UNTRUSTED)), `Codex trusts the hooks: ${Object.keys(hashes).join(', ')}.`],
    };
  } finally {
    recordWall(t, p.file, p.before, existed, written);
  }
}

/** Claude Code and Codex: write the file and keep (or, at disconnect, drop) the record of what the wall replaced. */
function applyWalled(t: ConnectTarget, p: Plan): Plan {
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
  recordWall(t, p.file, p.before, existed, p.after, p.prior);
  return p;
}

/** The record disconnect reads; the original text is kept for a byte-for-byte disconnect only while the file is
 *  still as NEXUS left it (and `null` when connect created the file: disconnect then deletes it). */
function recordWall(t: ConnectTarget, file: string, now: string, existed: boolean, after: string, prior: Prior = []): void {
  const rec = readWallRecord(t.dataDir, t.client, file);
  const before = rec ? (now === rec.after ? rec.before : undefined) : existed ? now : null;
  writeWallRecord(t.dataDir, t.client, { file, after, prior, ...(before !== undefined ? { before } : {}) });
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
