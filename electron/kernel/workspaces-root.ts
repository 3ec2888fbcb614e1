// Where default workspaces live: beside the data dir, never inside it (the data dir holds the database, the
// control socket and its credential, which an agent's files must not reach). On Windows, when the data dir is
// in the roaming profile (%APPDATA%, the default), they go to the same place under local app data
// (%LOCALAPPDATA%): workspaces hold whole checkouts and build output, which must not be copied to a server at
// every logon.
import { win32 } from 'node:path';

export function workspacesRoot(dataDir: string, env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (platform !== 'win32') return `${dataDir}-workspaces`;
  const roaming = env.APPDATA;
  const local = env.LOCALAPPDATA;
  if (roaming && local) {
    const rel = win32.relative(roaming, dataDir);
    if (rel && !rel.startsWith('..') && !win32.isAbsolute(rel)) return `${win32.join(local, rel)}-workspaces`;
  }
  return `${dataDir}-workspaces`;
}
