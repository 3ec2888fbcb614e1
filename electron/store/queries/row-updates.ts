// A row's state changes and field updates. Every state change is a guarded UPDATE (`WHERE state IN (...)`), so
// approve, deny, the clock and a stop racing for the same row resolve to exactly one winner; each UPDATE is
// prepared once per shape, so the hot path builds no SQL.
import { stmt, type Db, type Statement } from '../db.js';
import type { Row, RowError, RowGrantedBy } from '../records.js';
import type { EffectProfile, RowState, ToolResult } from '../../../shared/types.js';
import { iso, isoOr, toJson } from './util.js';

/** The fields a transition may set. Absent keys are left as they are. */
export interface RowPatch {
  tool?: string;
  runner?: string | null;
  granted_by?: RowGrantedBy | null;
  approved_by?: string | null;
  matched?: number[];
  addressee?: string | null;
  effect?: EffectProfile | null;
  expires_at?: number | null;
  error?: RowError | null;
  result?: ToolResult | null;
  started_at?: number;
  ended_at?: number;
  /** The row is this hop of its chain (the orchestration gate's number; kept for the count after a restart). */
  hop?: number;
}

const COLUMN: Record<keyof RowPatch, string[]> = {
  tool: ['tool'],
  runner: ['runner'],
  granted_by: ['granted_by'],
  approved_by: ['approved_by'],
  matched: ['matched_json'],
  addressee: ['addressee'],
  effect: ['effect_json'],
  expires_at: ['expires_at'],
  error: ['error_code', 'error_detail'],
  result: ['result_json'],
  started_at: ['started_at'],
  ended_at: ['ended_at'],
  hop: ['hop'],
};

/** Append a patch field's column values (JSON columns as text; an error is its code and detail) to `args`. */
function pushValues(args: unknown[], key: keyof RowPatch, v: unknown): void {
  switch (key) {
    case 'matched':
    case 'effect':
    case 'result':
      args.push(v == null ? null : toJson(v));
      break;
    case 'error': {
      const e = v as RowError | null;
      args.push(e ? e.code : null, e ? e.detail : null);
      break;
    }
    default:
      args.push(v ?? null);
  }
}

const PATCH_KEYS = Object.keys(COLUMN) as (keyof RowPatch)[];

/**
 * An UPDATE of the rows table, prepared once per shape (the patch's keys, and the `from` states a transition is
 * guarded by; null for a patch that leaves the state alone): the hot path builds no SQL.
 */
interface RowUpdate {
  statement: Statement;
  keys: (keyof RowPatch)[];
}
const updates = new WeakMap<Db, Map<string, RowUpdate>>();

function updateFor(db: Db, patch: RowPatch, from: readonly RowState[] | null): RowUpdate {
  let shape = from ? from.join(',') : '-';
  for (const k of PATCH_KEYS) if (patch[k] !== undefined) shape += ` ${k}`;
  let cache = updates.get(db);
  if (!cache) updates.set(db, (cache = new Map()));
  let u = cache.get(shape);
  if (!u) {
    const keys = PATCH_KEYS.filter((k) => patch[k] !== undefined);
    const sets = [...(from ? ['state = ?'] : []), 'updated_at = ?', ...keys.flatMap((k) => COLUMN[k].map((c) => `${c} = ?`))];
    const where = from ? `id = ? AND state IN (${from.map(() => '?').join(',')})` : 'id = ?';
    cache.set(shape, (u = { statement: stmt(db, `UPDATE rows SET ${sets.join(', ')} WHERE ${where}`), keys }));
  }
  return u;
}

/**
 * Move a row to `to` if it is in one of `from`; set the patch in the same statement.
 * Returns false (and changes nothing) when another transition won the row first.
 */
export function transitionRow(db: Db, id: string, from: readonly RowState[], to: RowState, patch: RowPatch, now: number): boolean {
  const u = updateFor(db, patch, from);
  const args: unknown[] = [to, now];
  for (const k of u.keys) pushValues(args, k, patch[k]);
  args.push(id, ...from);
  return u.statement.run(args).changes === 1;
}

/** The row a successful transitionRow leaves, computed in memory (no re-read on the hot path). */
export function patchedRow(row: Row, to: RowState, patch: RowPatch, now: number): Row {
  const out: Row = { ...row, state: to, updated_at: isoOr(now) };
  if (patch.tool !== undefined) out.tool = patch.tool;
  if (patch.runner !== undefined) out.runner = patch.runner;
  if (patch.granted_by !== undefined) out.granted_by = patch.granted_by;
  if (patch.approved_by !== undefined) out.approved_by = patch.approved_by;
  if (patch.matched !== undefined) out.matched = patch.matched;
  if (patch.addressee !== undefined) out.addressee = patch.addressee;
  if (patch.effect !== undefined) out.effect = patch.effect;
  if (patch.expires_at !== undefined) out.expires_at = iso(patch.expires_at);
  if (patch.error !== undefined) out.error = patch.error;
  if (patch.result !== undefined) out.result = patch.result;
  if (patch.started_at !== undefined) out.started_at = iso(patch.started_at);
  if (patch.ended_at !== undefined) out.ended_at = iso(patch.ended_at);
  return out;
}

/** Set fields without changing the state (e.g. clearing an addressee). */
export function patchRow(db: Db, id: string, patch: RowPatch, now: number): void {
  const u = updateFor(db, patch, null);
  if (!u.keys.length) return;
  const args: unknown[] = [now];
  for (const k of u.keys) pushValues(args, k, patch[k]);
  args.push(id);
  u.statement.run(args);
}
