// The `nexus` command and the kernel name a data dir's control socket from the same spelling of it.
import { describe, expect, it, afterEach } from 'vitest';
import { mkdirSync, realpathSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { canonicalDataDir } from '../store/data-dir.js';
import { socketPath } from '../doors/socket.js';
import { createNexus } from '../app.js';
import { workspacesRoot } from '../kernel/workspaces-root.js';
import { world } from '../../test/support/world.js';

let w = world();
afterEach(async () => {
  await w.cleanup();
  w = world();
});

describe('one data dir resolver for the kernel and the CLI', () => {
  it("a data dir reached through a symlink gets the kernel's pipe name (Windows pipes hash the path)", async () => {
    const base = w.dir('canon');
    const real = join(base, 'real');
    mkdirSync(real);
    const link = join(base, 'link');
    symlinkSync(real, link);
    const nexus = await createNexus({ dataDir: join(link, '.', 'sub', '..'), modules: {} });
    try {
      // The kernel opened its real path; the CLI given the link computes the same pipe.
      expect(nexus.dataDir).toBe(realpathSync(real));
      expect(socketPath(canonicalDataDir(link), 'win32')).toBe(socketPath(nexus.dataDir, 'win32'));
      // Without the shared resolver the names differ: this is what the CLI used to do.
      expect(socketPath(link, 'win32')).not.toBe(socketPath(nexus.dataDir, 'win32'));
    } finally {
      await nexus.close();
    }
  });

  it('a dir that does not exist yet is made absolute', () => {
    expect(canonicalDataDir('no/such/dir')).toBe(join(process.cwd(), 'no', 'such', 'dir'));
  });
});

describe('workspaces root', () => {
  const env = { APPDATA: 'C:\\Users\\u\\AppData\\Roaming', LOCALAPPDATA: 'C:\\Users\\u\\AppData\\Local' };
  it('Windows: a data dir in the roaming profile keeps its workspaces in local app data', () => {
    expect(workspacesRoot('C:\\Users\\u\\AppData\\Roaming\\NEXUS', env, 'win32')).toBe('C:\\Users\\u\\AppData\\Local\\NEXUS-workspaces');
    expect(workspacesRoot('c:\\users\\u\\appdata\\roaming\\NEXUS\\team', env, 'win32')).toBe('C:\\Users\\u\\AppData\\Local\\NEXUS\\team-workspaces');
  });
  it('elsewhere the workspaces sit beside the data dir, never inside it', () => {
    expect(workspacesRoot('D:\\nexus-data', env, 'win32')).toBe('D:\\nexus-data-workspaces');
    expect(workspacesRoot('/home/u/.config/NEXUS', env, 'linux')).toBe('/home/u/.config/NEXUS-workspaces');
  });
});
