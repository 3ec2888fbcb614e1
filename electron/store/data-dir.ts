// Where a kernel keeps its data: --data-dir, else NEXUS_DATA_DIR, else the platform's app-data folder
// (~/.config/NEXUS on Linux — or $XDG_CONFIG_HOME/NEXUS —, ~/Library/Application Support/NEXUS on macOS,
// %APPDATA%\NEXUS on Windows).
import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform, home = homedir()): string {
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'NEXUS');
  if (platform === 'win32') return join(env.APPDATA || join(home, 'AppData', 'Roaming'), 'NEXUS');
  return join(env.XDG_CONFIG_HOME || join(home, '.config'), 'NEXUS');
}

export function resolveDataDir(flag: string | undefined, env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (flag) return resolve(flag);
  if (env.NEXUS_DATA_DIR) return resolve(env.NEXUS_DATA_DIR);
  return defaultDataDir(env, platform);
}

/**
 * The one spelling of a data dir that every process agrees on: its real path (symlinks, junctions and `..`
 * resolved), as the kernel opens it. The control socket's name is derived from it (a hash on Windows), so the
 * `nexus` command must use exactly this, too. A dir that does not exist yet is only made absolute.
 */
export function canonicalDataDir(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return resolve(dir);
  }
}
