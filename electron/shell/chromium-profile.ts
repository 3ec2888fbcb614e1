// Chromium's own profile (HTTP cache, GPU cache, local storage, crash reports) is kept out of the NEXUS data
// dir: the data dir holds the database, keys and workspaces, and on Linux and macOS Electron's default
// profile folder IS the data dir. The window stores nothing there that matters, so the profile lives with
// other caches — and on Windows under local, not roaming, app data.
import { homedir } from 'node:os';
import { join, win32 } from 'node:path';

export function chromiumProfileDir(platform: NodeJS.Platform = process.platform, env: NodeJS.ProcessEnv = process.env, home = homedir()): string {
  if (platform === 'win32') return win32.join(env.LOCALAPPDATA || win32.join(home, 'AppData', 'Local'), 'NEXUS', 'Chromium');
  if (platform === 'darwin') return join(home, 'Library', 'Caches', 'NEXUS', 'Chromium');
  return join(env.XDG_CACHE_HOME || join(home, '.cache'), 'NEXUS', 'chromium');
}
