// Chain state in the store (migration 003): chains and the runs each started (hop numbers: hops.ts). Limits are
// computed from these rows, so a restart cannot reset a limit mid-chain.
import { randomBytes } from 'node:crypto';
import { stmt, tx, type Db } from '../db.js';
import type { ChainPosition } from '../../../shared/orchestration/chain.js';

export interface ChainRecord {
  id: string;
  starter: string;
  starter_run_id: string;
  touched: string[];
  hop_count: number;
}

export interface ChainMember extends ChainPosition {
  chain_id: string;
  run_id: string | null;
  handoff_row_id: string;
}

// The gate reads positions on every governed hop: the JSON of identical stored text is parsed once.
const parsedLists = new Map<string, string[]>();
function list(text: string): string[] {
  let v = parsedLists.get(text);
  if (!v) {
    if (parsedLists.size > 1024) parsedLists.clear();
    parsedLists.set(text, (v = Object.freeze(JSON.parse(text) as string[]) as string[]));
  }
  return v;
}

export const newChainId = (): string => `chain_${randomBytes(8).toString('hex')}`;

export function getChain(db: Db, id: string): ChainRecord | null {
  const r = stmt<{ id: string; starter: string; starter_run_id: string; touched_json: string; hop_count: number }>(
    db,
    'SELECT id, starter, starter_run_id, touched_json, hop_count FROM chains WHERE id = ?',
  ).get(id);
  return r ? { id: r.id, starter: r.starter, starter_run_id: r.starter_run_id, touched: JSON.parse(r.touched_json), hop_count: r.hop_count } : null;
}

interface MemberRecord {
  handoff_row_id: string;
  run_id: string | null;
  chain_id: string;
  agent: string;
  depth: number;
  path_json: string;
}
const toMember = (r: MemberRecord): ChainMember => ({
  handoff_row_id: r.handoff_row_id,
  run_id: r.run_id,
  chain_id: r.chain_id,
  agent: r.agent,
  depth: r.depth,
  path: list(r.path_json),
});

/**
 * The chain position of a run, or null when no chain started it (an agent acting on its own). A run whose
 * membership was written before the run existed is found through the hand-off row that is its parent.
 */
export function memberOf(db: Db, run: { id: string; parent?: { row_id: string } | null }): ChainMember | null {
  let r = stmt<MemberRecord>(db, 'SELECT * FROM chain_runs WHERE run_id = ?').get(run.id);
  if (!r && run.parent) {
    r = stmt<MemberRecord>(db, 'SELECT * FROM chain_runs WHERE handoff_row_id = ?').get(run.parent.row_id);
  }
  return r ? toMember(r) : null;
}

export function memberByHandoff(db: Db, handoff_row_id: string): ChainMember | null {
  const r = stmt<MemberRecord>(db, 'SELECT * FROM chain_runs WHERE handoff_row_id = ?').get(handoff_row_id);
  return r ? toMember(r) : null;
}

/**
 * Begin a chain: `starter` (acting on its own, in run `starterRunId`) hands work on. Records hop 1 and the
 * starter; the recipient joins when its run exists (`addMember`).
 */
export function beginChain(db: Db, a: { starter: string; starterRunId: string; recipient: string; now: number }): ChainRecord {
  const id = newChainId();
  const touched = [...new Set([a.starter, a.recipient])];
  tx(db, () => {
    stmt(db, 'INSERT INTO chains (id, starter, starter_run_id, touched_json, hop_count, created_at, updated_at) VALUES (?, ?, ?, ?, 1, ?, ?)').run(
      id,
      a.starter,
      a.starterRunId,
      JSON.stringify(touched),
      a.now,
      a.now,
    );
  });
  return { id, starter: a.starter, starter_run_id: a.starterRunId, touched, hop_count: 1 };
}

/** Record that the chain touched `agent` (a recipient), keeping first-touch order. */
export function touch(db: Db, chain_id: string, agent: string, now: number): void {
  tx(db, () => {
    const c = getChain(db, chain_id);
    if (!c) throw new Error(`no chain ${chain_id}`);
    if (c.touched.includes(agent)) return;
    stmt(db, 'UPDATE chains SET touched_json = ?, updated_at = ? WHERE id = ?').run(JSON.stringify([...c.touched, agent]), now, chain_id);
  });
}

/** Record where the recipient of a hand-off sits, BEFORE its run starts (keyed by the hand-off row). */
export function addMember(db: Db, m: { handoff_row_id: string; chain_id: string; position: ChainPosition; now: number }): void {
  stmt(db, 'INSERT OR REPLACE INTO chain_runs (handoff_row_id, run_id, chain_id, agent, depth, path_json, created_at) VALUES (?, NULL, ?, ?, ?, ?, ?)').run(
    m.handoff_row_id,
    m.chain_id,
    m.position.agent,
    m.position.depth,
    JSON.stringify(m.position.path),
    m.now,
  );
}

/** The recipient's run exists: bind it to its position. */
export function bindMemberRun(db: Db, handoff_row_id: string, run_id: string): void {
  stmt(db, 'UPDATE chain_runs SET run_id = ? WHERE handoff_row_id = ?').run(run_id, handoff_row_id);
}

// The gate's read, as constants: a statement's text built per call is a new string each time, and finding its
// prepared statement then hashes the whole text again on every hop.
const PLACE = `SELECT m.handoff_row_id, m.run_id, m.chain_id, m.agent, m.depth, m.path_json,
                      c.starter, c.starter_run_id, c.touched_json, c.hop_count
               FROM chain_runs m JOIN chains c ON c.id = m.chain_id WHERE m.`;
const PLACE_BY_RUN = `${PLACE}run_id = ?`;
const PLACE_BY_HANDOFF = `${PLACE}handoff_row_id = ?`;

/** The gate's read: a run's position and its chain in ONE query (the hot path of every governed hop). */
export function placeOf(db: Db, run: { id: string; parent?: { row_id: string } | null }): { member: ChainMember; chain: ChainRecord } | null {
  type R = MemberRecord & { starter: string; starter_run_id: string; touched_json: string; hop_count: number };
  let r = stmt(db, PLACE_BY_RUN).get(run.id) as R | undefined;
  if (!r && run.parent) r = stmt(db, PLACE_BY_HANDOFF).get(run.parent.row_id) as R | undefined;
  if (!r) return null;
  return {
    member: toMember(r),
    chain: { id: r.chain_id, starter: r.starter, starter_run_id: r.starter_run_id, touched: list(r.touched_json), hop_count: r.hop_count },
  };
}
