// At every start the data dir is 0700 and its files 0600; what was looser is reported once.
import { afterEach, describe, expect, it } from 'vitest';
import { chmodSync, existsSync, mkdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createNexus } from '../app.js';
import { PRIVATE_FILES, tightenDataDir } from './data-dir-perms.js';
import { world } from '../../test/support/world.js';

let w = world();
afterEach(async () => {
  await w.cleanup();
  w = world();
});
const mode = (p: string) => statSync(p).mode & 0o777;

describe.runIf(process.platform !== 'win32')('data dir permissions', () => {
  it('a fresh data dir starts private with no warning: folder 0700, db/-wal/-shm/lock 0600', async () => {
    const root = w.dir('perm');
    const dir = join(root, 'data');
    const warnings: string[] = [];
    const nexus = await createNexus({ dataDir: dir, modules: {}, warn: (l) => void warnings.push(l) });
    try {
      nexus.db.prepare('SELECT 1').get();
      expect(mode(dir)).toBe(0o700);
      for (const f of ['nexus.db', 'nexus.db-wal', 'nexus.db-shm', 'nexus.lock']) expect(mode(join(dir, f)), f).toBe(0o600);
      expect(warnings).toEqual([]);
    } finally {
      await nexus.close();
    }
  });

  it('a folder the person made 0755 with a 0644 database is tightened at start, with a warning naming each', async () => {
    const root = w.dir('perm');
    const dir = join(root, 'data');
    await (await createNexus({ dataDir: dir, modules: {}, warn: () => {} })).close();
    chmodSync(dir, 0o755);
    chmodSync(join(dir, 'nexus.db'), 0o644);
    writeFileSync(join(dir, 'secrets.json'), '{"version":1,"agents":{}}', { mode: 0o644 });
    chmodSync(join(dir, 'secrets.json'), 0o644);
    const warnings: string[] = [];
    const nexus = await createNexus({ dataDir: dir, modules: {}, warn: (l) => void warnings.push(l) });
    try {
      expect(mode(dir)).toBe(0o700);
      for (const f of PRIVATE_FILES.filter((f) => existsSync(join(dir, f)) && f !== 'nexus.sock')) expect(mode(join(dir, f)), f).toBe(0o600);
      expect(warnings.join('\n')).toMatch(/the data dir .* was 0755, now 0700/);
      expect(warnings.join('\n')).toMatch(/nexus\.db was 0644, now 0600/);
      expect(warnings.join('\n')).toMatch(/secrets\.json was 0644, now 0600/);
    } finally {
      await nexus.close();
    }
  });

  it('never follows a symlink planted under a private name', () => {
    const root = w.dir('perm');
    const dir = join(root, 'data');
    mkdirSync(dir, { mode: 0o700 });
    const victim = join(root, 'victim');
    writeFileSync(victim, 'x', { mode: 0o644 });
    chmodSync(victim, 0o644);
    symlinkSync(victim, join(dir, 'secrets.json'));
    expect(tightenDataDir(dir)).toEqual([]);
    expect(mode(victim)).toBe(0o644);
  });
});
