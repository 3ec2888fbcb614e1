// Input files are bounded and refused as too large BEFORE being read: a sparse terabyte file is refused at
// once (reading it would never end), an endless device is cut off past the limit, and `nexus entitlements
// import` of a 10 MB token file says "too large" instead of a socket reset.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { InputTooLarge, MAX_JSON_FILE_BYTES, readBoundedText, readJsonFile } from './read-json.js';
import { main } from './main.js';
import { world, type World } from '../../test/support/world.js';

let w: World;
let dir: string;
beforeEach(() => {
  w = world();
  dir = w.dir('input');
});
afterEach(() => w.cleanup());

describe('bounded input files', () => {
  it('a file over the limit is refused by its size, unread (a sparse 1 TB file returns at once)', async () => {
    const huge = join(dir, 'agent.json');
    writeFileSync(huge, '');
    truncateSync(huge, 1024 ** 4);
    const r = await readJsonFile(huge);
    expect(r).toEqual({ ok: false, message: `${huge} is too large (${1024 ** 4} bytes): the limit is 4 MiB` });
  });

  it('at the limit is fine; one byte more is refused', async () => {
    const f = join(dir, 'rules.json');
    writeFileSync(f, `"${'x'.repeat(MAX_JSON_FILE_BYTES - 2)}"`);
    expect((await readJsonFile(f)).ok).toBe(true);
    writeFileSync(f, `"${'x'.repeat(MAX_JSON_FILE_BYTES - 1)}"`);
    expect(await readJsonFile(f)).toMatchObject({ ok: false, message: expect.stringMatching(/too large .*4 MiB/) });
  });

  it.runIf(process.platform === 'linux')('a stream with no size (a device) is cut off past the limit', async () => {
    await expect(readBoundedText('/dev/zero', 1024)).rejects.toBeInstanceOf(InputTooLarge);
  });

  it('nexus entitlements import of a 10 MB token file: refused as too large with its limit, before any kernel is asked', async () => {
    const token = join(dir, 'token.jwt');
    writeFileSync(token, 'x'.repeat(10 * 1024 * 1024));
    const err: string[] = [];
    const code = await main(['entitlements', 'import', token, '--data-dir', join(dir, 'no-kernel-here')], { out: () => {}, err: (t) => void err.push(t) });
    expect(code).toBe(1);
    expect(err.join('')).toMatch(/too large \(10485760 bytes\): the limit is 64 KiB/);
  });
});
