// `nexus runs list --desk`, `nexus chains --desk`, `nexus tasks --desk`: the whole team desk's runs, chains and
// delegated tasks (with their checks), read from its record through this machine's kernel (docs/desk.md).
import type { CliIo } from './io.js';
import { expectValue, oneLine, printJson, table, usageError, withKernel, type Values } from './common.js';
import type { MethodOutput } from '../../shared/api/index.js';

type DeskObject = MethodOutput<'deskRecord'>[number];
type View = 'runs' | 'chains' | 'tasks';

const text = (v: unknown) => (v === null || v === undefined ? '' : typeof v === 'string' ? v : JSON.stringify(v));

const COLUMNS: Record<View, (o: DeskObject) => string[]> = {
  runs: (o) => [o.id, o.machine, text(o.state.agent) || '(person)', text(o.state.status), text(o.state.mode), o.first_at],
  chains: (o) => [
    o.id,
    o.machine,
    Array.isArray(o.state.touched) ? o.state.touched.map(text).join(' → ') : text(o.state.starter),
    `${text(o.state.hop_count)} hops`,
    o.last_at,
  ],
  tasks: (o) => {
    const checks = o.evidence ?? [];
    return [
      o.id,
      o.machine,
      `${text(o.state.delegator)} → ${text(o.state.recipient)}`,
      text(o.state.status),
      `${checks.filter((e) => e.passed === true).length}/${checks.length} checks passed`,
      oneLine(text(o.state.task), 60),
    ];
  },
};

/** One view of the desk; `usage` for a flag --desk does not take (a cursor: the desk lists its newest page). */
export function deskView(view: View, values: Values, io: CliIo, usage: string): Promise<number> {
  if (values.cursor !== undefined) return Promise.resolve(usageError(io, usage, '--desk lists the newest page of the desk; --cursor is for this machine'));
  const limit = values.limit === undefined ? 200 : Number(values.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) return Promise.resolve(usageError(io, usage, '--limit takes 1–1000 with --desk'));
  return withKernel(values, io, async (api) => {
    const r = await expectValue(io, api.deskRecord({ view, limit }));
    if (!r) return 1;
    if (values.json) printJson(io, r.value);
    else io.out(r.value.length ? table(r.value.map(COLUMNS[view])) : `(no ${view} at the desk)`);
    return 0;
  });
}
