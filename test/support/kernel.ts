// Test harness for kernel tests: a real store in a fresh temp data dir, a manual clock, and a probe tool that
// records every execution (and what the store said about the row at that moment). Not a test file itself.
import { createNexus, type Nexus, type NexusModules } from '../../electron/app.js';
import type { ManualClock } from '../../electron/kernel/clock.js';
import { world } from './world.js';
import { getRow } from '../../electron/store/queries/rows.js';
import type { ExecutorTool, Row } from '../../electron/kernel/types.js';
import type { ToolResult } from '../../shared/types.js';

export interface Harness {
  nexus: Nexus;
  dir: string;
  clock: ManualClock;
  cleanup(): Promise<void>;
}

/** `modules`: which modules to build besides the kernel (default none: a bare kernel). */
export async function harness(opts: { modules?: Partial<NexusModules>; clock?: ManualClock; dir?: string } = {}): Promise<Harness> {
  // A dir passed in stays the caller's: only a dir this world made is removed.
  const w = world(opts.clock ? { clock: opts.clock } : {});
  const dir = opts.dir ?? w.dir('kernel');
  const clock = w.clock;
  const nexus = await createNexus({ dataDir: dir, clock, modules: opts.modules ?? {} });
  w.defer(() => nexus.close());
  return { nexus, dir, clock, cleanup: () => w.cleanup() };
}

export interface ProbeCall {
  input: unknown;
  /** The row as the STORE had it when the tool started: proves the decision was durable first. */
  stored: Row | null;
}

/** A tool that records its calls. `result` may be replaced per test. */
export function probe(nexus: Nexus, name = 'probe'): { calls: ProbeCall[]; tool: ExecutorTool; result: ToolResult } {
  const p = {
    calls: [] as ProbeCall[],
    result: { content: [{ type: 'text' as const, text: 'probe ran' }] } as ToolResult,
    tool: undefined as unknown as ExecutorTool,
  };
  p.tool = {
    name,
    description: 'records calls',
    inputSchema: { type: 'object' },
    async run(input, ctx) {
      p.calls.push({ input, stored: getRow(nexus.db, ctx.row.id) });
      return p.result;
    },
  };
  nexus.kernel.registerTool(p.tool);
  return p;
}

/** Every NexusEvent, recorded. */
export function record(nexus: Nexus) {
  const events: import('../../shared/api/index.js').NexusEvent[] = [];
  nexus.onEvent((e) => events.push(e));
  return events;
}
