// Without a desk nothing changes: no outbox row is written for a park, a decision or a row's end, and the
// governed hops read Stop all from the local store alone.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { harness, probe, type Harness } from '../support/kernel.js';
import { outboxPending } from '../../electron/store/queries/desk-outbox.js';
import { deskOptionsFromEnv } from '../../electron/desk/setup.js';

let h: Harness;
beforeEach(async () => {
  h = await harness({ modules: { governance: true } });
  probe(h.nexus);
});
afterEach(async () => h.cleanup());

describe('a kernel with no desk', () => {
  it('writes no outbox row for a park, its approval and the row end', async () => {
    const k = h.nexus.kernel;
    const run = k.createRun({ agent: null, mode: 'ask' });
    const row = k.submitRow(run.id, { tool: 'probe', input: { x: 1 }, origin: 'model' });
    expect(row.state).toBe('needs_approval');
    k.approve(row.id, { by: 'person:cli' });
    expect((await k.waitRow(row.id)).state).toBe('succeeded');
    const denied = k.submitRow(run.id, { tool: 'probe', input: { x: 2 }, origin: 'model' });
    k.deny(denied.id, { by: 'person:cli' });
    k.stopRun(run.id);
    expect(outboxPending(h.nexus.db)).toBe(0);
    expect(h.nexus.desk).toBeNull();
    expect(h.nexus.governance!.stopAllInEffect()).toBe(false);
  });

  it('builds no desk from an environment without NEXUS_DESK_URL', () => {
    expect(deskOptionsFromEnv({ NEXUS_MACHINE: 'x' })).toBeNull();
    expect(deskOptionsFromEnv({ NEXUS_DESK_URL: 'postgres://r@h/d', NEXUS_MACHINE: 'm', NEXUS_DESK_SILENCE_S: '3' })).toMatchObject({
      machine: 'm',
      silenceStopS: 3,
    });
  });
});
