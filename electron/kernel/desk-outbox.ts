// What a kernel joined to a team desk tells it (DESIGN §8): each call sits INSIDE the transaction of the change it
// describes, so the change and its outbox row commit or vanish together. Nothing is written without a desk.
import { insertOutbox } from '../store/queries/desk-outbox.js';
import type { KernelState } from './kernel-state.js';
import type { Row, Run } from './types.js';

export function outboxCard(k: KernelState, run: Run, row: Row, c: { tool: string; target: string; expires_at: number }, now: number): void {
  if (!k.deskOutbox) return;
  insertOutbox(k.db, {
    kind: 'card',
    ref: row.id,
    data: { id: row.id, kind: 'autonomy', run_id: run.id, agent: run.agent, tool: c.tool, target: c.target, expires_at: c.expires_at },
    now,
  });
}

export function outboxDecision(k: KernelState, row_id: string, status: string, by: string | null, now: number): void {
  if (!k.deskOutbox) return;
  insertOutbox(k.db, { kind: 'decision', ref: row_id, data: { row_id, status, by }, now });
}

export function outboxRowEnd(k: KernelState, row: Row, state: string, error: string | null, now: number): void {
  if (!k.deskOutbox) return;
  insertOutbox(k.db, { kind: 'row', ref: row.id, data: { row_id: row.id, run_id: row.run_id, tool: row.tool, state, error }, now });
}

export function outboxRunEnd(k: KernelState, run_id: string, status: string, error: string | null, now: number): void {
  if (!k.deskOutbox) return;
  insertOutbox(k.db, { kind: 'run', ref: run_id, data: { run_id, status, error }, now });
}
