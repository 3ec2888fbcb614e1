// The store at scale: a 1M-row store (20k runs, one of them 20k rows long, 10k pending cards) against a
// 10k-row store of the same shape, each generated with plain SQL inserts in one transaction into a temp dir.
// Printed as ratios (large ÷ small), because what must not grow with history is the cost of:
// - `nexus serve` start-up: the whole process until it listens (createNexus with every module and
//   kernel.start's recovery inside), and the same in-process;
// - the first page of the runs list, of the inbox, and of a run's rows (runsShow, and runsRows after it).
// The two stores are measured in turns, so other work on the machine slows both alike.
// Run with `npm run bench` (it builds first) or alone: `npx tsx bench/store.bench.ts` after `node scripts/build.mjs`.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createNexus, type Nexus } from '../electron/app.js';
import { dispatch } from '../electron/api/dispatch.js';
import { openDatabase } from '../electron/store/db.js';
import { line, now, pct } from './report.js';
import { removeDir } from '../test/support/world.js';

export interface Shape {
  rows: number;
  runs: number;
  /** Rows of the one long run whose first page is read. */
  longRun: number;
  pending: number;
}
const LARGE: Shape = { rows: 1_000_000, runs: 20_000, longRun: 20_000, pending: 10_000 };
const SMALL: Shape = { rows: 10_000, runs: 200, longRun: 1_000, pending: 100 };
const LONG_RUN = 'run_long';
const BIN = join(import.meta.dirname, '..', 'bin', 'nexus.cjs');
const PAGE = 200;

/** Fill a fresh data dir: ended runs with finished rows, running person's runs holding the parked rows. */
export function generate(dataDir: string, s: Shape): void {
  const db = openDatabase(join(dataDir, 'nexus.db'));
  const t0 = Date.now() - 30 * 86_400_000;
  const runIds: string[] = [LONG_RUN];
  const parkedRuns = Math.max(1, Math.floor(s.pending / 5)); // five parked rows each
  const insRun = db.prepare(
    `INSERT INTO runs (id, agent, status, mode, rules_json, hooks_json, workspace, prompt, final_answer, created_by, created_at, updated_at, ended_at)
     VALUES (?, ?, ?, 'ask', '[]', '{}', '/tmp/ws', ?, ?, 'person:cli', ?, ?, ?)`,
  );
  const insRow = db.prepare(
    `INSERT INTO rows (id, run_id, seq, origin, wire_tool, tool, runner, input_json, state, round, granted_by, approved_by, matched_json, expires_at, result_json, created_at, updated_at, started_at, ended_at)
     VALUES (?, ?, ?, 'model', 'bash', 'bash', 'bash', ?, ?, ?, ?, ?, '[]', ?, ?, ?, ?, ?, ?)`,
  );
  const insCard = db.prepare(
    `INSERT INTO inbox (id, kind, status, run_id, row_id, agent, tool, target, expires_at, data_json, created_at, resolved_at)
     VALUES (?, 'autonomy', ?, ?, ?, NULL, 'bash', ?, ?, '{}', ?, ?)`,
  );
  const insEvent = db.prepare('INSERT INTO run_events (run_id, type, data_json, at) VALUES (?, ?, NULL, ?)');
  const result = JSON.stringify({ content: [{ type: 'text', text: 'x'.repeat(240) }], structuredContent: { exit_code: 0 } });
  db.transaction(() => {
    let at = t0;
    for (let i = 0; i < s.runs; i++) {
      const id = i === 0 ? LONG_RUN : `run_${i}`;
      if (i) runIds.push(id);
      const running = i > 0 && i <= parkedRuns;
      insRun.run(
        id,
        running ? null : `agent_${i % 10}`,
        running ? 'running' : 'succeeded',
        `prompt ${i}`,
        running ? null : 'done',
        (at += 10),
        at,
        running ? null : at,
      );
      insEvent.run(id, 'run_started', at);
      if (!running) insEvent.run(id, 'run_ended', at);
    }
    const perRun = Math.floor((s.rows - s.longRun) / (s.runs - 1));
    let n = 0;
    const row = (run: string, seq: number, parked: boolean) => {
      const id = `row_${n++}`;
      const command = JSON.stringify({ command: `echo ${n} && ls -la /tmp/ws/src/${n % 97}` });
      at += 1;
      insRow.run(
        id,
        run,
        seq,
        command,
        parked ? 'needs_approval' : 'succeeded',
        seq,
        parked ? null : 'rule',
        parked ? null : 'person:window',
        parked ? at + 86_400_000 * 60 : null,
        parked ? null : result,
        at,
        at,
        parked ? null : at,
        parked ? null : at,
      );
      if (parked) insCard.run(id, 'pending', run, id, `echo ${n}`, at + 86_400_000 * 60, at, null);
      else if (n % 10 === 0) insCard.run(id, 'approved', run, id, `echo ${n}`, null, at, at); // answered cards: history
    };
    for (let q = 1; q <= s.longRun; q++) row(LONG_RUN, q, false);
    for (let i = 1; i < s.runs; i++) {
      const parked = i <= parkedRuns ? 5 : 0;
      for (let q = 1; q <= perRun; q++) row(runIds[i], q, q > perRun - parked);
    }
  })();
  db.close();
}

/** Wall time of a whole `nexus serve` process until it is listening (it prints its control socket), ms. */
async function serveStart(dataDir: string): Promise<number> {
  const t = now();
  const child = spawn(process.execPath, [BIN, 'serve', '--data-dir', dataDir, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  const ms = await new Promise<number>((resolve, reject) => {
    const seen = (c: Buffer) => {
      log += c;
      if (log.includes('control socket:')) resolve(now() - t);
    };
    child.stdout.on('data', seen);
    child.stderr.on('data', seen);
    child.on('exit', (code) => reject(new Error(`nexus serve exited ${code} before listening: ${log}`)));
  });
  child.removeAllListeners('exit');
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
  return ms;
}

async function call(nexus: Nexus, method: string, input: unknown): Promise<unknown> {
  const r = await dispatch(nexus.handlers, method, input, { door: 'internal' });
  if (!r.ok) throw new Error(`${method}: ${r.error.message}`);
  return r.value;
}

/**
 * Medians of `f` on the small and the large store, ms, the two measured in turns (small, large, small, …) so
 * a machine busy with other work slows both alike; the first two rounds warm up.
 */
async function paired(f: (which: 0 | 1) => Promise<unknown>, n = 41): Promise<[number, number]> {
  const xs: [number[], number[]] = [[], []];
  for (let i = 0; i < n + 2; i++) {
    for (const which of [0, 1] as const) {
      const t = now();
      await f(which);
      if (i >= 2) xs[which].push(now() - t);
    }
  }
  return [pct(xs[0], 50), pct(xs[1], 50)];
}

function ratio(label: string, [small, large]: [number, number], budget: number | null) {
  const r = large / small;
  line(label, `${large.toFixed(1)} ÷ ${small.toFixed(1)} ms = ${r.toFixed(2)}×`, budget === null ? '' : `≤ ${budget}×`, budget === null ? null : r <= budget);
}

export async function run() {
  const dirs = [mkdtempSync(join(tmpdir(), 'nexus-bench-store-10k-')), mkdtempSync(join(tmpdir(), 'nexus-bench-store-1m-'))] as const;
  try {
    for (const [i, shape] of [SMALL, LARGE].entries()) {
      const g = now();
      generate(dirs[i], shape);
      console.log(
        `  generated ${shape.rows.toLocaleString('en')} rows, ${shape.runs.toLocaleString('en')} runs, ${shape.pending.toLocaleString('en')} pending cards in ${((now() - g) / 1000).toFixed(1)} s`,
      );
    }
    ratio('nexus serve start-up (process until listening), 1M ÷ 10k', await paired((w) => serveStart(dirs[w]), 7), 1.6);
    // The same start inside one process (modules already loaded): what is left is createNexus and recovery,
    // which re-arms every parked row's deadline: it grows with what is parked (10k vs 100), not with history.
    ratio(
      '  createNexus + recovery in-process, 1M ÷ 10k',
      await paired(async (w) => (await createNexus({ dataDir: dirs[w], warn: () => {} })).close(), 9),
      null,
    );
    const nexus = [await createNexus({ dataDir: dirs[0], warn: () => {} }), await createNexus({ dataDir: dirs[1], warn: () => {} })] as const;
    try {
      const cursors: string[] = [];
      for (const n of nexus) {
        const show = (await call(n, 'runsShow', { id: LONG_RUN })) as { rows: unknown[]; rows_next_cursor: string | null };
        if (show.rows.length !== PAGE || !show.rows_next_cursor) throw new Error('the long run should show one full page of rows');
        cursors.push(show.rows_next_cursor);
      }
      ratio(`runsList first page (${PAGE}), 1M ÷ 10k`, await paired((w) => call(nexus[w], 'runsList', { limit: PAGE })), 3);
      ratio(`inboxList first page (${PAGE}), 1M ÷ 10k`, await paired((w) => call(nexus[w], 'inboxList', { limit: PAGE })), 3);
      ratio(`runsShow of the long run (first ${PAGE} rows), 1M ÷ 10k`, await paired((w) => call(nexus[w], 'runsShow', { id: LONG_RUN })), 3);
      ratio(
        `runsRows next page (${PAGE}), 1M ÷ 10k`,
        await paired((w) => call(nexus[w], 'runsRows', { run_id: LONG_RUN, cursor: cursors[w], limit: PAGE })),
        3,
      );
      const bytes = async (method: string, input: unknown) => `${(JSON.stringify(await call(nexus[1], method, input)).length / 1024).toFixed(0)} KiB`;
      line(
        'runsShow / inboxList first page size, 1M store',
        `${await bytes('runsShow', { id: LONG_RUN })} / ${await bytes('inboxList', { limit: PAGE })}`,
        '',
        null,
      );
    } finally {
      for (const n of nexus) await n.close();
    }
  } finally {
    for (const d of dirs) removeDir(d); // and the workspaces the kernel made beside each
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await run();
