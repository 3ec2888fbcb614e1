// The global teardown of vitest and Playwright: tests make their data dirs in the OS temp folder and remove
// them; the kernel makes default workspaces beside each data dir (`<dataDir>-workspaces`). Once a test's data
// dir is gone, its sibling workspaces folder is an orphan: removed here so test runs leave nothing behind.
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function removeOrphanWorkspaces(dir = tmpdir()): number {
  let removed = 0;
  for (const name of readdirSync(dir)) {
    if (!name.startsWith('nexus-') || !name.endsWith('-workspaces')) continue;
    if (existsSync(join(dir, name.slice(0, -'-workspaces'.length)))) continue;
    try {
      rmSync(join(dir, name), { recursive: true, force: true });
      removed++;
    } catch (e) {
      // Another user's leftovers (a run as root beside one as an unprivileged user) are not this run's to remove.
      if ((e as NodeJS.ErrnoException).code !== 'EACCES' && (e as NodeJS.ErrnoException).code !== 'EPERM') throw e;
    }
  }
  return removed;
}

export default function setup(): () => void {
  return () => void removeOrphanWorkspaces();
}
