// Every list pages with a cursor and a limit: runs, a run's rows and timeline, delegated tasks, Recent chains.
// Paging is keyset (the cursor is the last item seen), so what is added meanwhile never shifts a page, and a
// cursor the store does not know is refused with invalid_input, not read as "start again".
// A real NEXUS (turns + governance) on a fresh SQLite, called through the dispatcher (zod in front).
import { afterEach, describe, expect, it } from 'vitest';
import { scenario, type Scenario } from '../../test/support/scenarios.js';
import { insertTask } from '../store/queries/tasks.js';

let s: Scenario | null = null;
afterEach(async () => {
  await s?.cleanup();
  s = null;
});

type Page<T> = { items: T[]; next_cursor: string | null };
type RunJson = { id: string; pending?: number };
type RowJson = { id: string; state: string; input: { command: string } };
type Detail = RunJson & { rows: RowJson[]; rows_next_cursor: string | null; events: { type: string }[]; events_next_cursor: string | null };

const refused = (p: Promise<unknown>, message: RegExp) => expect(p).rejects.toMatchObject({ code: 'invalid_input', message: expect.stringMatching(message) });

/** Walk a cursor-paged array method to its end, page by page. */
async function walkArray(
  method: string,
  limit: number,
  input: Record<string, unknown> = {},
  idOf: (x: never) => string = (x: { id: string }) => x.id,
): Promise<string[][]> {
  const pages: string[][] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = await s!.call<never[]>(method, { ...input, limit, ...(cursor ? { cursor } : {}) });
    if (!page.length) return pages;
    pages.push(page.map(idOf));
    cursor = pages.at(-1)!.at(-1);
    if (page.length < limit) return pages;
  }
}

describe('runsList pages newest first', () => {
  it('limit + cursor walk every run once, in order; runs created meanwhile do not shift the pages', async () => {
    s = await scenario({});
    const made: string[] = [];
    for (let i = 0; i < 7; i++) made.push((await s.call<RunJson>('runsCreate', { mode: 'bypass' })).id);
    const newestFirst = [...made].reverse();
    const first = await s.call<RunJson[]>('runsList', { limit: 3 });
    expect(first.map((r) => r.id)).toEqual(newestFirst.slice(0, 3));
    await s.call('runsCreate', { mode: 'bypass' }); // newer than every listed run: lands before page 1, not in page 2
    const second = await s.call<RunJson[]>('runsList', { limit: 3, cursor: first.at(-1)!.id });
    expect(second.map((r) => r.id)).toEqual(newestFirst.slice(3, 6));
    const pages = await walkArray('runsList', 3);
    expect(pages.flat()).toHaveLength(8);
    expect(new Set(pages.flat()).size).toBe(8);
    expect(pages.flat().slice(1)).toEqual(newestFirst);
  });

  it('a cursor that is no run is refused with a sentence; a limit over the cap is refused', async () => {
    s = await scenario({});
    await refused(s.call('runsList', { limit: 3, cursor: 'run_nope' }), /"run_nope" is not a run's id/);
    await refused(s.call('runsList', { limit: 5000 }), /limit/);
  });
});

describe("runsShow carries a first page of a run's rows and timeline; runsRows and runsEvents page on", () => {
  async function parkedRun(n: number) {
    const run = await s!.call<RunJson>('runsCreate', { mode: 'ask', rules: [{ tool: '*', verdict: 'ask', origin: 'author' }] });
    for (let i = 0; i < n; i++) await s!.call('runsAppend', { run_id: run.id, tool: 'bash', input: { command: `echo ${i}` } });
    return run;
  }

  it('the first page, then every row once in order; pending counts every parked row, not only the page', async () => {
    s = await scenario({});
    const run = await parkedRun(5);
    const d = await s.call<Detail>('runsShow', { id: run.id, rows_limit: 2, events_limit: 2 });
    expect(d.rows.map((r) => r.input.command)).toEqual(['echo 0', 'echo 1']);
    expect(d.rows_next_cursor).toBe(d.rows[1].id);
    expect(d.pending).toBe(5);
    const commands = d.rows.map((r) => r.input.command);
    for (let cursor = d.rows_next_cursor; cursor;) {
      const p = await s.call<Page<RowJson>>('runsRows', { run_id: run.id, cursor, limit: 2 });
      commands.push(...p.items.map((r) => r.input.command));
      cursor = p.next_cursor;
    }
    expect(commands).toEqual(['echo 0', 'echo 1', 'echo 2', 'echo 3', 'echo 4']);
    // Without a limit the page holds every row of a small run and says there is no more.
    const all = await s.call<Detail>('runsShow', { id: run.id });
    expect(all.rows).toHaveLength(5);
    expect(all.rows_next_cursor).toBeNull();
  });

  it('the timeline pages the same way, from events_next_cursor', async () => {
    s = await scenario({});
    const run = await parkedRun(3);
    const whole = (await s.call<Detail>('runsShow', { id: run.id })).events.map((e) => e.type);
    expect(whole.length).toBeGreaterThanOrEqual(3);
    const d = await s.call<Detail>('runsShow', { id: run.id, events_limit: 1 });
    const types = d.events.map((e) => e.type);
    for (let cursor = d.events_next_cursor; cursor;) {
      const p = await s.call<Page<{ type: string }>>('runsEvents', { run_id: run.id, cursor, limit: 1 });
      types.push(...p.items.map((e) => e.type));
      cursor = p.next_cursor;
    }
    expect(types).toEqual(whole);
  });

  it("another run's row, or a made-up cursor, is refused; an unknown run is not_found", async () => {
    s = await scenario({});
    const a = await parkedRun(2);
    const b = await parkedRun(1);
    const bRow = (await s.call<Detail>('runsShow', { id: b.id })).rows[0].id;
    await refused(s.call('runsRows', { run_id: a.id, cursor: bRow }), /is not a row of run/);
    await refused(s.call('runsEvents', { run_id: a.id, cursor: 'x1' }), /not a position in a run's timeline/);
    await refused(s.call('runsRows', { run_id: a.id, limit: 501 }), /limit/);
    await expect(s.call('runsRows', { run_id: 'run_nope' })).rejects.toMatchObject({ code: 'not_found' });
  });
});

describe('tasksList and chainsList page too', () => {
  it('tasks newest first by cursor; an unknown cursor is refused', async () => {
    s = await scenario({});
    const ids = Array.from({ length: 5 }, (_, i) => `task_${i}`);
    ids.forEach((id, i) =>
      insertTask(s!.gov.db, {
        id,
        delegator: 'lead',
        delegator_run_id: 'r',
        delegator_row_id: 'w',
        recipient: 'mid',
        task: `t${i}`,
        check_command: 'true',
        check_timeout_s: null,
        chain_id: null,
        created_at: 1000 + (i >> 1),
      }),
    );
    const pages = await walkArray('tasksList', 2);
    expect(pages).toEqual([['task_4', 'task_3'], ['task_2', 'task_1'], ['task_0']]);
    await refused(s.call('tasksList', { cursor: 'task_nope' }), /not a delegated task's id/);
  });

  it('Recent chains by chain_id cursor; a cursor that is not listed is refused', async () => {
    s = await scenario({});
    for (const c of ['c1', 'c2', 'c3']) {
      s.gov.recent.recordHop(c, { hop: 1, agent: 'lead', action: 'delegate_task', target: 'mid', verdict: 'allowed' });
      s.gov.recent.recordHop(c, { hop: 2, agent: 'mid', action: 'bash', target: 'ls', verdict: 'allowed' });
    }
    expect(await walkArray('chainsList', 2, {}, (c: { chain_id: string }) => c.chain_id)).toEqual([['c3', 'c2'], ['c1']]);
    expect((await s.call<unknown[]>('chainsList')).length).toBe(3);
    await refused(s.call('chainsList', { cursor: 'c9' }), /not a chain in the Recent chains list/);
  });
});
