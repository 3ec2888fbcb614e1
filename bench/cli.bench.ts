// The `nexus` command's start-up, as a person feels it: whole processes, median of repeated runs.
// - `nexus --help` against `node -e 0` (the floor: Node itself starting);
// - `nexus status --json` and `nexus inbox --json` against a running `nexus serve`, each against a minimal
//   Node client that sends the same request over the same socket (the floor for a client command).
// Run with `npm run bench` or alone: `npx tsx bench/cli.bench.ts`.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { serve } from '../test/support/serve.js';
import { socketPath } from '../electron/doors/socket-path.js';
import { line, now, pct } from './report.js';
import { removeDir } from '../test/support/world.js';

const ROOT = join(import.meta.dirname, '..');
const BIN = join(ROOT, 'bin', 'nexus.cjs');
const RUNS = 15;

/** Median wall time of a whole process, ms (one warm-up run first). */
function timeProcess(args: string[]): number {
  const samples: number[] = [];
  for (let i = 0; i <= RUNS; i++) {
    const t = now();
    execFileSync(process.execPath, args, { stdio: ['ignore', 'ignore', 'ignore'] });
    if (i > 0) samples.push(now() - t);
  }
  return pct(samples, 50);
}

/** The least a client can do: connect, send one request line, read one answer line, exit. */
const MINIMAL_CLIENT = `
const net = require('node:net');
const [path, method] = process.argv.slice(2);
const c = net.createConnection(path, () => c.write(JSON.stringify({ id: 1, method, input: {} }) + '\\n'));
let buf = '';
c.setEncoding('utf8');
c.on('data', (d) => { buf += d; if (buf.includes('\\n')) { process.stdout.write(buf); c.destroy(); } });
`;

function ratio(label: string, mine: number, floor: number, budget: number) {
  const r = mine / floor;
  line(label, `${mine.toFixed(0)} ms ÷ ${floor.toFixed(0)} ms = ${r.toFixed(2)}×`, `≤ ${budget}×`, r <= budget);
}

export async function run() {
  const node0 = timeProcess(['-e', '0']);
  ratio('nexus --help vs node -e 0', timeProcess([BIN, '--help']), node0, 1.2);

  const served = await serve();
  const dir = mkdtempSync(join(tmpdir(), 'nexus-bench-cli-'));
  try {
    const client = join(dir, 'minimal-client.cjs');
    writeFileSync(client, MINIMAL_CLIENT);
    const sock = socketPath(served.dir);
    for (const [cmd, method] of [
      ['status', 'status'],
      ['inbox', 'inboxList'],
    ] as const) {
      const floor = timeProcess([client, sock, method]);
      ratio(`nexus ${cmd} --json vs a minimal socket client`, timeProcess([BIN, cmd, '--json', '--data-dir', served.dir]), floor, 1.2);
    }
  } finally {
    removeDir(dir); // and the workspaces the kernel made beside it
    await served.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await run();
