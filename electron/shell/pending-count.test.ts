import { afterEach, describe, expect, it, vi } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createNexus, type Nexus } from '../app.js';
import { followPending } from './pending-count.js';

let nexus: Nexus | null = null;
let dir = '';
afterEach(async () => {
  await nexus?.close();
  nexus = null;
  rmSync(dir, { recursive: true, force: true });
});

describe('followPending', () => {
  it('shows nothing waiting at once, then the kernel status, then each pushed count', async () => {
    dir = mkdtempSync(join(tmpdir(), 'nexus-pending-'));
    nexus = await createNexus({ dataDir: join(dir, 'data'), modules: {} });
    const shown: Array<[number, boolean]> = [];
    followPending(nexus, (pending, stopAll) => shown.push([pending, stopAll]));
    expect(shown).toEqual([[0, false]]);
    await vi.waitFor(() =>
      expect(shown).toEqual([
        [0, false],
        [0, false],
      ]),
    );
    nexus.events.emit({ type: 'inbox_changed', pending: 3 });
    expect(shown.at(-1)).toEqual([3, false]);
  });
});
