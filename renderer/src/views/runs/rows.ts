// What the Runs view says about a run's rows, as plain functions (unit-tested): who let a row through, how rows
// group in the order they happened, and what a row's state reads as.
import type { RunFull } from '../../stores/runs.js';
import { grantWords } from '../../../../shared/api/doors.js';

export type Row = RunFull['rows'][number];

export function grantLine(r: Pick<Row, 'approved_by' | 'granted_by'>): string {
  return grantWords(r);
}

/**
 * Rows grouped in the order they happened: each run of consecutive rows of one model round is a "Round N"
 * group, and kernel/appended rows (no round) sit where they happened between rounds. (Grouping every
 * roundless row into one bucket put an acceptance check that ran after round 3 above round 3.)
 */
export function groupRows(rows: readonly Row[]): { key: string; label: string; rows: Row[] }[] {
  const groups: { key: string; label: string; rows: Row[] }[] = [];
  let seenRound: number | null = null;
  for (const r of rows) {
    const round = r.round === null || r.round === undefined ? null : r.round;
    const label = round === null ? (r.origin === 'author' ? 'Appended rows' : 'Kernel rows') : `Round ${round}`;
    const last = groups.at(-1);
    if (last && last.label === label) {
      last.rows.push(r);
      continue;
    }
    // A round that made no tool call has no rows: say so, rather than jump from Round 1 to Round 3.
    if (round !== null && seenRound !== null && round > seenRound + 1) {
      const from = seenRound + 1;
      const skipped = from === round - 1 ? `Round ${from}` : `Rounds ${from}–${round - 1}`;
      groups.push({ key: `${groups.length}-${skipped}`, label: `${skipped}: no tool calls`, rows: [] });
    }
    if (round !== null) seenRound = Math.max(seenRound ?? 0, round);
    groups.push({ key: `${groups.length}-${label}`, label, rows: [r] });
  }
  return groups;
}

/** The state pill's words: a hop held by orchestration (not performed, the agent retries once approved)
 *  is not a failure a person must fix. */
export function stateLabel(r: Pick<Row, 'state' | 'error'>): { text: string; cls: string } {
  if (r.state === 'failed' && r.error?.code === 'hop_held') return { text: 'held', cls: 'held' };
  return { text: r.state.replace('_', ' '), cls: r.state };
}
