// Where default workspaces live. Inside the data dir, except on Windows when the data dir is in the roaming
// profile (%APPDATA%, the default): workspaces hold whole checkouts and build output, which must not be copied
// to a server at every logon, so they go to the same place under local app data (%LOCALAPPDATA%).
import { join, win32 } from 'node:path';

export function workspacesRoot(dataDir: string, env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (platform !== 'win32') return join(dataDir, 'workspaces');
  const roaming = env.APPDATA;
  const local = env.LOCALAPPDATA;
  if (roaming && local) {
    const rel = win32.relative(roaming, dataDir);
    if (rel && !rel.startsWith('..') && !win32.isAbsolute(rel)) return win32.join(local, rel, 'workspaces');
  }
  return win32.join(dataDir, 'workspaces');
}
