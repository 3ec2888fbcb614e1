// The stage (seed 000 "The stage", "The origin rule", "The modes"): every row crosses it, under every mode, for
// every origin, through the REAL store. Each case is a line of the seed's table.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { harness, probe, type Harness } from '../../test/support/kernel.js';
import type { ApprovalRule, Mode, Origin } from '../../shared/types.js';
import { listRowsOfRun } from '../store/queries/rows.js';
import type { ExecutorTool } from './types.js';

let h: Harness;
let p: ReturnType<typeof probe>;
beforeEach(async () => {
  h = await harness();
  p = probe(h.nexus);
});
afterEach(async () => h.cleanup());

const REASON = 'force push rewrites history others may hold; a person can run it';
const rulesFor = (verdict: 'deny' | 'allow' | 'ask' | null, origin?: Origin): ApprovalRule[] =>
  verdict === null
    ? [{ tool: 'other_tool', verdict: 'allow' }]
    : [{ tool: 'probe', verdict, ...(verdict === 'deny' ? { reason: REASON } : {}), ...(origin ? { origin } : {}) }];

async function submit(mode: Mode, rules: ApprovalRule[], origin: Origin) {
  const run = h.nexus.kernel.createRun({ agent: null, mode, rules });
  const row = h.nexus.kernel.submitRow(run.id, { tool: 'probe', input: { x: 1 }, origin });
  const ended = row.state === 'needs_approval' ? row : await h.nexus.kernel.waitRow(row.id);
  return { run, row, ended };
}

type Expect = { outcome: 'granted'; by: 'mode' | 'rule' | 'origin' } | { outcome: 'parked' } | { outcome: 'failed'; detail: string };

async function expectOutcome(mode: Mode, rules: ApprovalRule[], origin: Origin, want: Expect) {
  const { row, ended } = await submit(mode, rules, origin);
  if (want.outcome === 'granted') {
    expect(row.state).toBe('running');
    expect(row.granted_by).toBe(want.by);
    expect(ended.state).toBe('succeeded');
    expect(p.calls).toHaveLength(1);
    // A decision is durable before its effect: the store had the row running and granted when the tool began.
    expect(p.calls[0].stored?.state).toBe('running');
    expect(p.calls[0].stored?.granted_by).toBe(want.by);
  } else if (want.outcome === 'parked') {
    expect(row.state).toBe('needs_approval');
    expect(p.calls).toHaveLength(0);
  } else {
    expect(row.state).toBe('failed');
    expect(row.error).toEqual({ code: 'approval_denied', detail: want.detail });
    expect(row.result?.isError).toBe(true);
    expect(p.calls).toHaveLength(0);
  }
}

/** A tool whose effect preview throws: parking it fails while the row is being decided. */
const fragile: ExecutorTool = {
  name: 'fragile',
  description: 'its preview throws',
  inputSchema: {},
  preview: () => {
    throw new Error('preview exploded');
  },
  run: async () => ({ content: [{ type: 'text', text: 'must not run' }] }),
};

describe('The modes — for a model-composed tool call', () => {
  const table: Array<[Mode, 'deny' | 'allow' | 'ask' | null, Expect]> = [
    ['bypass', 'deny', { outcome: 'failed', detail: REASON }],
    ['bypass', 'allow', { outcome: 'granted', by: 'mode' }],
    ['bypass', 'ask', { outcome: 'granted', by: 'mode' }],
    ['bypass', null, { outcome: 'granted', by: 'mode' }],
    ['ask', 'deny', { outcome: 'failed', detail: REASON }],
    ['ask', 'allow', { outcome: 'granted', by: 'rule' }],
    ['ask', 'ask', { outcome: 'parked' }],
    ['ask', null, { outcome: 'parked' }],
    ['rules', 'deny', { outcome: 'failed', detail: REASON }],
    ['rules', 'allow', { outcome: 'granted', by: 'rule' }],
    ['rules', 'ask', { outcome: 'parked' }],
    ['rules', null, { outcome: 'failed', detail: 'no approval rule allows probe' }],
  ];
  const word = (w: Expect) =>
    w.outcome === 'granted' ? `granted, origin: ${w.by}` : w.outcome === 'parked' ? 'PARKS' : `failed approval_denied — ${w.detail}`;
  for (const [mode, verdict, want] of table) {
    it(`${mode} | ${verdict ? `${verdict} rule matches` : 'unmatched'} → ${word(want)}`, async () => {
      await expectOutcome(mode, rulesFor(verdict), 'model', want);
    });
  }
});

describe('The origin rule — author and kernel rows are pre-approved by their origin', () => {
  for (const origin of ['author', 'kernel'] as const) {
    for (const mode of ['bypass', 'ask', 'rules'] as const) {
      it(`an ${origin} row is granted by its origin under ${mode} (unmatched)`, async () => {
        await expectOutcome(mode, [], origin, { outcome: 'granted', by: 'origin' });
      });
      it(`an ${origin} row under ${mode} is not governed by model rules (a model deny/ask does not touch it)`, async () => {
        await expectOutcome(
          mode,
          [
            { tool: 'probe', verdict: 'deny' },
            { tool: 'probe', verdict: 'ask' },
          ],
          origin,
          { outcome: 'granted', by: 'origin' },
        );
      });
      it(`an ${origin} row under ${mode} parks only on an ask rule naming its origin`, async () => {
        await expectOutcome(mode, rulesFor('ask', origin), origin, { outcome: 'parked' });
      });
      it(`an ${origin} row under ${mode} is refused by a deny rule naming it (deny binds for every origin)`, async () => {
        await expectOutcome(mode, rulesFor('deny', origin), origin, { outcome: 'failed', detail: REASON });
      });
      it(`an ${origin} row under ${mode} stays granted by origin when an allow rule names it`, async () => {
        await expectOutcome(mode, rulesFor('allow', origin), origin, { outcome: 'granted', by: 'origin' });
      });
    }
  }
});

describe('The stage — every tool call crosses it, never skipped', () => {
  it('a row is recorded at ready before the stage decides, and every row carries a decision', async () => {
    const seen: string[] = [];
    h.nexus.kernel.setHopGate((call) => {
      // The gate runs after the row is durable at `ready`.
      seen.push(h.nexus.kernel.getRow(call.row_id)!.state);
      return { proceed: true };
    });
    const run = h.nexus.kernel.createRun({ agent: null, mode: 'ask', rules: [{ tool: 'probe', path: 'x', match: '1', verdict: 'allow' }] });
    const a = h.nexus.kernel.submitRow(run.id, { tool: 'probe', input: { x: '1' }, origin: 'model' });
    const b = h.nexus.kernel.submitRow(run.id, { tool: 'probe', input: { x: '2' }, origin: 'model' });
    expect(seen).toEqual(['ready', 'ready']);
    await h.nexus.kernel.waitRow(a.id);
    const rows = listRowsOfRun(h.nexus.db, run.id);
    expect(rows.map((r) => [r.state, r.granted_by])).toEqual([
      ['succeeded', 'rule'],
      ['needs_approval', null],
    ]);
    expect(b.state).toBe('needs_approval');
  });

  it('a wire alias is resolved before matching: Bash is checked as bash, the row keeps the wire name', async () => {
    const run = h.nexus.kernel.createRun({ agent: null, mode: 'rules', rules: [{ tool: 'bash', path: 'command', match: 'echo *', verdict: 'allow' }] });
    const row = h.nexus.kernel.submitRow(run.id, { tool: 'Bash', input: { command: 'echo aliased' }, origin: 'model' });
    expect(row.tool).toBe('bash');
    expect(row.wire_tool).toBe('Bash');
    const done = await h.nexus.kernel.waitRow(row.id);
    expect(done.state).toBe('succeeded');
    expect(done.result?.content[0].text).toBe('aliased');
  });

  it('a runner route NAME__<12 hex> is checked as the served NAME and keeps its concrete runner target', async () => {
    const served: unknown[] = [];
    const run = h.nexus.kernel.createRun({ agent: null, mode: 'rules', rules: [{ tool: 'bash', path: 'command', match: 'ls*', verdict: 'allow' }] });
    h.nexus.kernel.tools.addRunTools(run.id, [
      {
        name: 'bash__0123456789ab',
        description: 'served bash',
        inputSchema: {},
        run: async (input) => (served.push(input), { content: [{ type: 'text', text: 'from the runner' }] }),
      },
    ]);
    const row = h.nexus.kernel.submitRow(run.id, { tool: 'bash__0123456789ab', input: { command: 'ls -la' }, origin: 'model' });
    expect(row).toMatchObject({ tool: 'bash', runner: '0123456789ab', wire_tool: 'bash__0123456789ab', granted_by: 'rule' });
    expect((await h.nexus.kernel.waitRow(row.id)).result!.content[0].text).toBe('from the runner');
    expect(served).toEqual([{ command: 'ls -la' }]);
    const refused = h.nexus.kernel.submitRow(run.id, { tool: 'bash__0123456789ab', input: { command: 'rm -rf /' }, origin: 'model' });
    expect(refused.error).toEqual({ code: 'approval_denied', detail: 'no approval rule allows bash' });
  });

  it("a runner route never executes the kernel's own tool of that name when its runner is not there", async () => {
    const run = h.nexus.kernel.createRun({ agent: null, mode: 'bypass' });
    const row = h.nexus.kernel.submitRow(run.id, { tool: 'bash__ffffffffffff', input: { command: 'echo must-not-run' }, origin: 'model' });
    const done = await h.nexus.kernel.waitRow(row.id);
    expect(done.state).toBe('failed');
    expect(done.error?.code).toBe('unknown_tool');
  });

  it('an agent wanting "unmatched allow" under rules authors {"tool": "*", "verdict": "allow"} last, explicitly', async () => {
    const run = h.nexus.kernel.createRun({
      agent: null,
      mode: 'rules',
      rules: [
        { tool: 'probe', path: 'x', match: 'bad', verdict: 'deny' },
        { tool: '*', verdict: 'allow' },
      ],
    });
    expect(h.nexus.kernel.submitRow(run.id, { tool: 'probe', input: { x: 'good' }, origin: 'model' }).granted_by).toBe('rule');
    expect(h.nexus.kernel.submitRow(run.id, { tool: 'probe', input: { x: 'bad' }, origin: 'model' }).error?.code).toBe('approval_denied');
  });

  it('a typo in a tool name under rules is a refusal the model reads, never a park', async () => {
    const run = h.nexus.kernel.createRun({ agent: null, mode: 'rules', rules: [{ tool: 'bash', verdict: 'allow' }] });
    const row = h.nexus.kernel.submitRow(run.id, { tool: 'bsah', input: { command: 'ls' }, origin: 'model' });
    expect(row.state).toBe('failed');
    expect(row.error).toEqual({ code: 'approval_denied', detail: 'no approval rule allows bsah' });
    expect(row.result?.content[0].text).toContain('no approval rule allows bsah');
  });

  it('what runs is exactly what was recorded and judged: the input is normalized once, later mutation changes nothing', async () => {
    const run = h.nexus.kernel.createRun({ agent: null, mode: 'ask' });
    const input: Record<string, unknown> = { a: 1, gone: undefined, at: new Date(0) };
    const row = h.nexus.kernel.submitRow(run.id, { tool: 'probe', input, origin: 'model' });
    input.a = 2;
    h.nexus.kernel.approve(row.id, { by: 'p' });
    await h.nexus.kernel.waitRow(row.id);
    const recorded = { a: 1, at: '1970-01-01T00:00:00.000Z' };
    expect(h.nexus.kernel.getRow(row.id)!.input).toEqual(recorded);
    expect(p.calls[0].input).toEqual(recorded);
  });

  it('a granted call of a tool nobody serves fails unknown_tool after the stage', async () => {
    const run = h.nexus.kernel.createRun({ agent: null, mode: 'bypass' });
    const row = h.nexus.kernel.submitRow(run.id, { tool: 'no_such_tool', input: {}, origin: 'model' });
    expect(row.granted_by).toBe('mode');
    const done = await h.nexus.kernel.waitRow(row.id);
    expect(done.state).toBe('failed');
    expect(done.error?.code).toBe('unknown_tool');
  });
});

describe('The hop gate — called for model rows before the stage', () => {
  it('is called for a model row and not for author or kernel rows', async () => {
    const calls: string[] = [];
    h.nexus.kernel.setHopGate((c) => {
      calls.push(c.origin);
      return { proceed: true };
    });
    const run = h.nexus.kernel.createRun({ agent: null, mode: 'bypass' });
    for (const origin of ['model', 'author', 'kernel'] as const)
      await h.nexus.kernel.waitRow(h.nexus.kernel.submitRow(run.id, { tool: 'probe', input: {}, origin }).id);
    expect(calls).toEqual(['model']);
  });

  it('a non-proceeding hop is not performed: failed, with the gate result kept for the model', async () => {
    const result = {
      content: [{ type: 'text' as const, text: 'Chain depth limit reached.' }],
      structuredContent: { code: 'chain_depth_exceeded', retryable: true },
      isError: true,
    };
    h.nexus.kernel.setHopGate(() => ({ proceed: false, result }));
    const run = h.nexus.kernel.createRun({ agent: null, mode: 'bypass' });
    const row = h.nexus.kernel.submitRow(run.id, { tool: 'probe', input: {}, origin: 'model' });
    expect(row.state).toBe('failed');
    expect(row.error?.code).toBe('chain_depth_exceeded');
    expect(row.result).toEqual(result);
    expect(p.calls).toHaveLength(0);
  });

  it('fail closed: a gate that throws refuses the call (approval_error), never runs it', async () => {
    h.nexus.kernel.setHopGate(() => {
      throw new Error('settings unreadable');
    });
    const run = h.nexus.kernel.createRun({ agent: null, mode: 'bypass' });
    const row = h.nexus.kernel.submitRow(run.id, { tool: 'probe', input: {}, origin: 'model' });
    expect(row.state).toBe('failed');
    expect(row.error).toEqual({ code: 'approval_error', detail: 'settings unreadable' });
    expect(p.calls).toHaveLength(0);
  });

  it('fail closed: an asynchronous or malformed gate answer refuses the call', async () => {
    const run = h.nexus.kernel.createRun({ agent: null, mode: 'bypass' });
    h.nexus.kernel.setHopGate((() => Promise.resolve({ proceed: true })) as never);
    expect(h.nexus.kernel.submitRow(run.id, { tool: 'probe', input: {}, origin: 'model' }).error?.code).toBe('approval_error');
    h.nexus.kernel.setHopGate((() => ({ proceed: 'yes' })) as never);
    expect(h.nexus.kernel.submitRow(run.id, { tool: 'probe', input: {}, origin: 'model' }).error?.code).toBe('approval_error');
    h.nexus.kernel.setHopGate((() => ({ proceed: false, result: 'nope' })) as never);
    expect(h.nexus.kernel.submitRow(run.id, { tool: 'probe', input: {}, origin: 'model' }).error?.code).toBe('approval_error');
    expect(p.calls).toHaveLength(0);
  });

  it('fail closed: a hop number that is not a positive integer refuses the call', () => {
    const run = h.nexus.kernel.createRun({ agent: null, mode: 'bypass' });
    for (const hop of [0, -1, 1.5, '2', Number.NaN]) {
      h.nexus.kernel.setHopGate((() => ({ proceed: true, hop })) as never);
      expect(h.nexus.kernel.submitRow(run.id, { tool: 'probe', input: {}, origin: 'model' }).error?.code).toBe('approval_error');
    }
    expect(p.calls).toHaveLength(0);
  });

  it("the gate's hop number is kept on the row however the row is decided: granted, held by the gate, parked, refused, failed deciding", async () => {
    const hopOf = (id: string) => h.nexus.db.prepare('SELECT hop FROM rows WHERE id = ?').pluck().get(id);
    let n = 0;
    const held = { content: [{ type: 'text' as const, text: 'held' }], structuredContent: { code: 'hop_held' }, isError: true };
    h.nexus.kernel.setHopGate(() => (++n === 2 ? { proceed: false, result: held, hop: n } : { proceed: true, hop: n }));
    const bypass = h.nexus.kernel.createRun({ agent: null, mode: 'bypass' });
    const granted = h.nexus.kernel.submitRow(bypass.id, { tool: 'probe', input: {}, origin: 'model' });
    const heldRow = h.nexus.kernel.submitRow(bypass.id, { tool: 'probe', input: {}, origin: 'model' });
    const parked = h.nexus.kernel.submitRow(h.nexus.kernel.createRun({ agent: null, mode: 'ask' }).id, { tool: 'probe', input: {}, origin: 'model' });
    const denyAll = h.nexus.kernel.createRun({ agent: null, mode: 'rules', rules: [{ tool: '*', verdict: 'deny' }] });
    const refused = h.nexus.kernel.submitRow(denyAll.id, { tool: 'probe', input: {}, origin: 'model' });
    h.nexus.kernel.registerTool(fragile);
    const broken = h.nexus.kernel.submitRow(h.nexus.kernel.createRun({ agent: null, mode: 'ask' }).id, { tool: 'fragile', input: {}, origin: 'model' });
    expect([granted.state, heldRow.state, parked.state, refused.state, broken.error?.code]).toEqual([
      'running',
      'failed',
      'needs_approval',
      'failed',
      'approval_error',
    ]);
    expect([granted, heldRow, parked, refused, broken].map((r) => hopOf(r.id))).toEqual([1, 2, 3, 4, 5]);
    await h.nexus.kernel.waitRow(granted.id);
  });
});

describe('Fail closed in the stage itself', () => {
  it('an exception while parking (the effect preview) refuses the call with approval_error', async () => {
    h.nexus.kernel.registerTool(fragile);
    const run = h.nexus.kernel.createRun({ agent: null, mode: 'ask' });
    const row = h.nexus.kernel.submitRow(run.id, { tool: 'fragile', input: {}, origin: 'model' });
    expect(row.state).toBe('failed');
    expect(row.error).toEqual({ code: 'approval_error', detail: 'preview exploded' });
    expect(h.nexus.kernel.inbox.pending()).toHaveLength(0);
  });

  it('an input the stage cannot read is refused, not granted', async () => {
    const run = h.nexus.kernel.createRun({ agent: null, mode: 'bypass', rules: [{ tool: 'probe', path: 'a', verdict: 'deny' }] });
    const evil = {
      get a() {
        throw new Error('boom');
      },
    };
    expect(() => h.nexus.kernel.submitRow(run.id, { tool: 'probe', input: evil, origin: 'model' })).toThrow();
    expect(p.calls).toHaveLength(0);
  });
});

describe('Runs — mode and rules frozen on the run row', () => {
  it('rules are validated when the run is created (located errors)', () => {
    expect(() => h.nexus.kernel.createRun({ agent: null, mode: 'ask', rules: [{ tool: 'x', verdict: 'maybe' } as never] })).toThrow(/invalid/);
  });
  it('a row on an ended run is refused', () => {
    const run = h.nexus.kernel.createRun({ agent: null, mode: 'bypass' });
    h.nexus.kernel.stopRun(run.id);
    expect(() => h.nexus.kernel.submitRow(run.id, { tool: 'probe', input: {}, origin: 'author' })).toThrow(/canceled/);
  });
});
