// The hop gate's `after`: what a gate decision causes runs once the kernel's transaction has committed the
// row and the gate's writes, never when it rolls back, and a failing one does not keep granted rows from running.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { harness, probe, type Harness } from '../../test/support/kernel.js';
import { captureLog } from '../log.js';

let h: Harness;
let p: ReturnType<typeof probe>;
let other: Database.Database;
beforeEach(async () => {
  h = await harness();
  p = probe(h.nexus);
  other = new Database(join(h.dir, 'nexus.db'), { fileMustExist: true });
  other.exec('CREATE TABLE IF NOT EXISTS gate_marks (row_id TEXT PRIMARY KEY)');
});
afterEach(async () => {
  other.close();
  await h.cleanup();
});

describe('the hop gate decision carries its effects to after the commit', () => {
  it("runs after the fan's commit: another connection already reads the rows and the gate's own write", async () => {
    const seen: Array<{ row: unknown; mark: unknown }> = [];
    h.nexus.kernel.setHopGate((call) => {
      h.nexus.db.prepare('INSERT INTO gate_marks (row_id) VALUES (?)').run(call.row_id);
      return {
        proceed: true,
        after: () =>
          seen.push({
            row: other.prepare('SELECT state FROM rows WHERE id = ?').pluck().get(call.row_id),
            mark: other.prepare('SELECT row_id FROM gate_marks WHERE row_id = ?').pluck().get(call.row_id),
          }),
      };
    });
    const run = h.nexus.kernel.createRun({ agent: null, mode: 'bypass' });
    const rows = h.nexus.kernel.submitRows(run.id, [
      { tool: 'probe', input: { n: 1 }, origin: 'model' },
      { tool: 'probe', input: { n: 2 }, origin: 'model' },
    ]);
    expect(seen).toEqual(rows.map((r) => ({ row: 'running', mark: r.id })));
    for (const r of rows) await h.nexus.kernel.waitRow(r.id);
  });

  it('never runs when the transaction rolls back after the gate decided', () => {
    let ran = 0;
    h.nexus.kernel.setHopGate(() => ({ proceed: true, after: () => ran++ }));
    h.nexus.db.exec(
      `CREATE TEMP TRIGGER fail_row BEFORE INSERT ON rows WHEN NEW.input_json LIKE '%explode%' BEGIN SELECT RAISE(ABORT, 'injected failure'); END`,
    );
    const run = h.nexus.kernel.createRun({ agent: null, mode: 'bypass' });
    expect(() =>
      h.nexus.kernel.submitRows(run.id, [
        { tool: 'probe', input: { n: 1 }, origin: 'model' },
        { tool: 'probe', input: { explode: true }, origin: 'model' },
      ]),
    ).toThrow(/injected failure/);
    expect(ran).toBe(0);
    expect(p.calls).toHaveLength(0);
  });

  it('one that throws does not keep the granted rows from running', async () => {
    const logged = captureLog();
    h.nexus.kernel.setHopGate(() => ({
      proceed: true,
      after: () => {
        throw new Error('listener gone');
      },
    }));
    const run = h.nexus.kernel.createRun({ agent: null, mode: 'bypass' });
    const rows = h.nexus.kernel.submitRows(run.id, [
      { tool: 'probe', input: { n: 1 }, origin: 'model' },
      { tool: 'probe', input: { n: 2 }, origin: 'model' },
    ]);
    for (const r of rows) expect((await h.nexus.kernel.waitRow(r.id)).state).toBe('succeeded');
    expect(p.calls).toHaveLength(2);
    logged.restore();
    expect(logged.lines).toContainEqual({ level: 'error', line: 'nexus: an effect of the hop gate failed: listener gone' });
  });
});
