// The CLI pages its lists: `--limit N` reads one page and prints the command for the next, `--cursor` starts
// after an item, and a list read whole (no --limit) is read a page at a time yet printed complete. A real
// kernel behind the real control socket; the command runs in process with its output captured.
import { afterEach, describe, expect, it } from 'vitest';
import { main } from './main.js';
import { startSocketDoor, type SocketDoor } from '../doors/socket.js';
import { testNexus, type TestNexus } from '../../test/support/nexus.js';

let t: TestNexus | null = null;
let door: SocketDoor | null = null;
afterEach(async () => {
  await door?.close();
  await t?.close();
  t = null;
  door = null;
});

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main([...argv, '--data-dir', t!.dataDir], { out: (s) => void (out += `${s}\n`), err: (s) => void (err += `${s}\n`) });
  return { code, out, err };
}
const json = async <T>(...argv: string[]): Promise<T> => {
  const r = await cli(...argv, '--json');
  expect(r.code, r.err).toBe(0);
  return JSON.parse(r.out) as T;
};

/** A NEXUS whose one `ask` run parked `n` model calls: n pending cards, oldest first in submission order. */
async function withParked(n: number): Promise<{ run: string; cards: string[] }> {
  t = await testNexus({ modules: { governance: true } });
  door = await startSocketDoor(t.nexus);
  const { kernel } = t.nexus;
  const run = kernel.createRun({ agent: null, mode: 'ask', rules: [], created_by: 'person:cli' });
  const rows = kernel.submitRows(
    run.id,
    Array.from({ length: n }, (_, i) => ({ tool: 'bash', input: { command: `echo ${i}` }, origin: 'model' as const })),
  );
  return { run: run.id, cards: rows.map((r) => r.id) };
}

describe('nexus inbox pages', () => {
  it('without --limit lists every pending card, oldest first, read a page at a time', async () => {
    const { cards } = await withParked(1_203);
    const listed = await json<{ id: string }[]>('inbox');
    expect(listed.map((c) => c.id)).toEqual(cards);
  });

  it('--limit reads one page and names the command for the next; --cursor starts after that card', async () => {
    const { cards } = await withParked(5);
    const first = await cli('inbox', '--limit', '2');
    expect(first.code, first.err).toBe(0);
    expect(first.out).toContain(`more: nexus inbox --limit 2 --cursor ${cards[1]}`);
    expect((await json<{ id: string }[]>('inbox', '--limit', '2', '--cursor', cards[1]!)).map((c) => c.id)).toEqual(cards.slice(2, 4));
    const last = await cli('inbox', '--limit', '2', '--cursor', cards[3]!);
    expect(last.out).toContain(cards[4]!);
    expect(last.out).not.toContain('more:');
    // A cursor after the last card starts where it stood: nothing is left.
    expect(await json('inbox', '--cursor', cards[4]!)).toEqual([]);
  });

  it('a bad --limit or --cursor is a usage error and calls nothing', async () => {
    await withParked(1);
    for (const bad of [
      ['--limit', '0'],
      ['--limit', '1001'],
      ['--limit', 'ten'],
      ['--cursor', ' '],
    ]) {
      const r = await cli('inbox', ...bad);
      expect(r.code).toBe(2);
      expect(r.err).toMatch(/--limit must be a whole number 1\.\.1000|--cursor needs the id/);
    }
  });
});

describe('nexus runs pages', () => {
  it('runs show without --limit carries every row (followed past the first page); with --limit, one page', async () => {
    const { run, cards } = await withParked(1_203);
    const whole = await json<{ rows: { id: string }[]; rows_next_cursor: string | null }>('runs', 'show', run);
    expect(whole.rows.map((r) => r.id)).toEqual(cards);
    expect(whole.rows_next_cursor).toBeNull();
    const page = await json<{ rows: { id: string }[]; rows_next_cursor: string | null }>('runs', 'show', run, '--limit', '10', '--cursor', cards[9]!);
    expect(page.rows.map((r) => r.id)).toEqual(cards.slice(10, 20));
    expect(page.rows_next_cursor).toBe(cards[19]);
  });

  it('runs list --limit names the next page; a cursor that is no run is refused by the kernel', async () => {
    await withParked(1);
    const made = [t!.nexus.kernel.createRun({ agent: null, mode: 'bypass', rules: [], created_by: 'person:cli' }).id];
    const first = await cli('runs', 'list', '--limit', '1');
    expect(first.out).toContain(`more: nexus runs list --limit 1 --cursor ${made[0]}`);
    const bad = await cli('runs', 'list', '--cursor', 'run_nosuch');
    expect(bad.code).toBe(1);
    expect(bad.err).toMatch(/not a run's id/);
  });
});
