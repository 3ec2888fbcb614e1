// At each hook call: is the client's own wall (what `nexus connect` wrote, DESIGN §7.3) still in place for the
// folder the call comes from? Claude Code reads user, project and local settings in that order; a key missing or
// weakened in any of them that wins is a gap. Codex: the policy its session's turn runs under (codex-session.ts).
// A gap denies the call with the sentence to reconnect.
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { claudeWallGap } from './connect/claude-wall.js';
import { codexWallGap } from './connect/codex-wall.js';
import { wallDirs } from './connect/wall-record.js';
import { codexTurnPolicy } from './codex-session.js';
import type { ClientName } from './tool-map.js';

/** The hook event's fields the Codex check reads. */
export interface WallEvent {
  session_id: string;
  transcript_path?: string | null;
  turn_id?: string;
}

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);

function readJson(file: string): Json | string {
  if (!existsSync(file)) return {};
  try {
    const v: unknown = JSON.parse(readFileSync(file, 'utf8'));
    return isObj(v) ? v : `${file} is not a JSON object`;
  } catch {
    return `${file} could not be read`;
  }
}

/** Why the client's wall does not hold for this project (or, for Codex, this session's turn), as one sentence, or null when it holds. */
export function clientWallGap(client: ClientName, project: string, dataDir: string, env: NodeJS.ProcessEnv, ev?: WallEvent): string | null {
  if (client === 'codex') {
    const policy = ev ? codexTurnPolicy(ev) : 'NEXUS was not told which Codex session this is';
    const gap = typeof policy === 'string' ? policy : codexWallGap(policy, wallDirs(dataDir));
    return gap ? reconnect(client, gap) : null;
  }
  if (client !== 'claude-code') return null; // Gemini CLI, OpenCode: no wall NEXUS writes (docs/gemini-opencode.md)
  const home = env.HOME || homedir();
  const files = [join(home, '.claude', 'settings.json'), join(project, '.claude', 'settings.json'), join(project, '.claude', 'settings.local.json')];
  const sources: Json[] = [];
  for (const f of files) {
    const s = readJson(f);
    if (typeof s === 'string') return reconnect(client, s);
    sources.push(s);
  }
  const gap = claudeWallGap(sources, dataDir);
  return gap ? reconnect(client, gap) : null;
}

const reconnect = (client: ClientName, why: string) =>
  `NEXUS refused this call: ${client}'s own sandbox is not in place (${why}), so its commands could answer NEXUS for themselves; run \`nexus connect ${client}\` again.`;

/** True when the call's input names a path inside NEXUS's data dir (as given or resolved). */
export function namesDataDir(input: unknown, dataDir: string): boolean {
  const text = JSON.stringify(input ?? null);
  const dirs = new Set([dataDir]);
  try {
    dirs.add(realpathSync(dataDir));
  } catch {
    /* not there */
  }
  return [...dirs].some((d) => d.length > 1 && text.includes(JSON.stringify(d).slice(1, -1)));
}
