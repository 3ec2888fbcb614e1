// Where each client's settings live and the hook command NEXUS installs there (for connect, disconnect, status).
import { existsSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { DEFAULT_TIMEOUT_S, type HookSpec } from './hook-command.js';
import { OPENCODE_PLUGIN_FILE } from './opencode-plugin.js';

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
