// The row state machine under random interleavings of submits (every mode × origin × verdict), approvals,
// denials, the clock and stops, through the real store. Invariants (DESIGN §2, §7):
//  - a row executes at most once, and only after a grant was recorded (granted_by set, state running in store);
//  - a parked row and a pending autonomy card are the same thing;
//  - a terminal row never changes again; an expired row reads exactly APPROVAL_EXPIRED_TEXT.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { harness, probe } from '../../test/support/kernel.js';
import { APPROVAL_EXPIRED_TEXT, MODES, ORIGINS, PARK_DURATION_MS, TERMINAL_ROW_STATES, type ApprovalRule, type RowState } from '../../shared/types.js';
import { listPendingInbox } from '../store/queries/inbox.js';
import { saveAgent } from '../agents/profiles.js';

const VERDICT = fc.constantFrom('allow', 'ask', 'deny', null);
const op = fc.oneof(
  fc.record({
    kind: fc.constant('submit' as const),
    run: fc.nat(2),
    agent: fc.boolean(),
    origin: fc.constantFrom(...ORIGINS),
    verdict: VERDICT,
    named: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('approve' as const), row: fc.nat(30), trust: fc.boolean() }),
  fc.record({ kind: fc.constant('deny' as const), row: fc.nat(30) }),
  fc.record({ kind: fc.constant('advance' as const), ms: fc.constantFrom(1000, PARK_DURATION_MS / 2, PARK_DURATION_MS) }),
  fc.record({ kind: fc.constant('stop' as const), run: fc.nat(30) }),
);
const settle = async () => {
  for (let i = 0; i < 3; i++) await new Promise((r) => setImmediate(r));
};

describe('the row state machine under random interleavings', () => {
  it('keeps its invariants', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 25 }), async (ops) => {
        const h = await harness();
        try {
          const k = h.nexus.kernel;
          const p = probe(h.nexus);
          saveAgent(k, { name: 'a1', model: { provider: 'chat-completions', baseURL: 'http://127.0.0.1:9', model: 'm' }, mode: 'ask' });
          // Each submit gets its own run so it can carry its own rule (rules are frozen per run).
          const runs: string[] = [];
          const rows: string[] = [];
          const terminal = new Map<string, RowState>();
          for (const o of ops) {
            try {
              if (o.kind === 'submit') {
                const rules: ApprovalRule[] = o.verdict ? [{ tool: 'probe', verdict: o.verdict, ...(o.named ? { origin: o.origin } : {}) }] : [];
                const run = k.createRun({ agent: o.agent ? 'a1' : null, mode: MODES[o.run], rules });
                runs.push(run.id);
                rows.push(k.submitRow(run.id, { tool: 'probe', input: { n: rows.length }, origin: o.origin }).id);
              } else if (o.kind === 'approve' && rows.length) k.approve(rows[o.row % rows.length], { by: 'p', trust_session: o.trust });
              else if (o.kind === 'deny' && rows.length) k.deny(rows[o.row % rows.length], { by: 'p', reason: 'no' });
              else if (o.kind === 'advance') h.clock.advance(o.ms);
              else if (o.kind === 'stop' && runs.length) k.stopRun(runs[o.run % runs.length]);
            } catch (e) {
              // Answering a row that is not parked is a conflict, never a second run.
              expect((e as { code?: string }).code).toBe('conflict');
            }
            await settle();
            const pending = new Set(listPendingInbox(h.nexus.db).map((i) => i.id));
            for (const id of rows) {
              const row = k.getRow(id)!;
              const n = (row.input as { n: number }).n;
              const ran = p.calls.filter((c) => (c.input as { n: number }).n === n);
              expect(ran.length).toBeLessThanOrEqual(1);
              if (ran.length) {
                expect(ran[0].stored?.state).toBe('running');
                expect(ran[0].stored?.granted_by).not.toBeNull();
              }
              expect(ran.length === 1).toBe(row.granted_by !== null);
              expect(pending.has(id)).toBe(row.state === 'needs_approval');
              if (terminal.has(id)) expect(row.state).toBe(terminal.get(id));
              if (TERMINAL_ROW_STATES.includes(row.state)) terminal.set(id, row.state);
              if (row.state === 'timed_out') expect(row.result!.content[0].text).toBe(APPROVAL_EXPIRED_TEXT);
            }
          }
        } finally {
          await h.cleanup();
        }
      }),
      { numRuns: 60 },
    );
  });
});
