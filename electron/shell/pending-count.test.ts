import { afterEach, describe, expect, it, vi } from 'vitest';
import { join } from 'node:path';
import { createNexus } from '../app.js';
import { followPending } from './pending-count.js';
import { world } from '../../test/support/world.js';

let w = world();
afterEach(async () => {
  await w.cleanup();
  w = world();
});

describe('followPending', () => {
  it('shows nothing waiting at once, then the kernel status, then each pushed count', async () => {
    const nexus = await createNexus({ dataDir: join(w.dir('pending'), 'data'), modules: {} });
    w.defer(() => nexus.close());
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
