// Where a kernel keeps its data: --data-dir, else NEXUS_DATA_DIR, else the platform's app-data folder
// (~/.config/NEXUS on Linux — or $XDG_CONFIG_HOME/NEXUS —, ~/Library/Application Support/NEXUS on macOS,
// %APPDATA%\NEXUS on Windows).
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
