// Finding the host's root-only files (covered in the sandbox when NEXUS runs as root), on a real tree: the owner
// is this process's uid, so the walk is the same as root's and runs as any user.
import { afterEach, describe, expect, it } from 'vitest';
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { findRootSecrets, rootSecrets } from './root-secrets.js';
import { world } from '../../test/support/world.js';

let w = world();
afterEach(async () => {
  await w.cleanup();
  w = world();
});
const me = process.getuid!();

describe.runIf(process.platform === 'linux')('the root-only files', () => {
  it('a file or folder its owner alone may read is found; a folder found is not walked into; others are walked; links are not followed', () => {
    const etc = w.dir('etc');
    const file = (p: string, mode: number) => (writeFileSync(join(etc, p), 'x'), chmodSync(join(etc, p), mode));
    file('shadow', 0o640);
    file('hostname', 0o644);
    mkdirSync(join(etc, 'ssh'));
    file('ssh/ssh_host_ed25519_key', 0o600);
    file('ssh/ssh_host_ed25519_key.pub', 0o644);
    mkdirSync(join(etc, 'ssl/private'), { recursive: true });
    file('ssl/private/server.key', 0o600);
    chmodSync(join(etc, 'ssl/private'), 0o700);
    symlinkSync(join(etc, 'shadow'), join(etc, 'shadow-link'));
    const found = findRootSecrets([etc, join(etc, 'not-there')], me);
    expect(found.files.sort()).toEqual([join(etc, 'shadow'), join(etc, 'ssh/ssh_host_ed25519_key')]);
    expect(found.dirs).toEqual([join(etc, 'ssl/private')]);
    // Another owner's files are not this owner's secrets.
    expect(findRootSecrets([etc], me + 1)).toEqual({ files: [], dirs: [] });
  });

  it.runIf(me === 0)("as root, this machine's /etc/shadow is among them (and the answer is kept)", () => {
    const a = rootSecrets();
    expect(a.files).toContain('/etc/shadow');
    expect(rootSecrets()).toBe(a);
  });
  it.runIf(me !== 0)('not root: nothing is covered', () => {
    expect(rootSecrets()).toEqual({ files: [], dirs: [] });
  });
});
