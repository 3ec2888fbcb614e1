// `nexus serve [--data-dir DIR] [--port N]`: the kernel headless, with the control socket and the browser host.
// Prints the URL line, runs until SIGINT/SIGTERM, then closes everything cleanly.
import type { CliCommand } from './io.js';
import { parse, usageError } from './common.js';
import { resolveDataDir } from '../store/data-dir.js';
import { createNexus } from '../app.js';
import { offsetClock, systemClock, type Clock } from '../kernel/clock.js';
import { clockOffsetLine } from './kernel-commands.js';
import { startSocketDoor } from '../doors/socket.js';
import { startWebDoor, type WebDoor } from '../doors/web.js';
import { installLastResort } from '../doors/last-resort.js';
import { LAUNCH_TTL_MS } from '../doors/web-session.js';
import { errorMessage } from '../../shared/errors.js';
import { deskOptionsFromEnv } from '../desk/setup.js';
// `nexus desk init` ships in this ES module (it needs the postgres driver, as serve does).
export { deskCommand } from './desk.js';

const USAGE = `usage: nexus serve [--data-dir DIR] [--port N] [--no-web] [--desk URL --machine NAME [--desk-person ROLE]] [--json]
  Runs the kernel headless: the control socket (nexus.sock in the data dir) for the CLI, and the browser host
  on http://127.0.0.1:PORT/ (the address printed opens it once, within 2 minutes; \`nexus open\` prints a new
  one). The nexus command authenticates with nexus.sock.token in the data dir. Stop with Ctrl-C.
  --port N: 0–65535; 0 (the default) picks any free port. --no-web: the control socket only.
  One kernel per data dir: a second serve on the same data dir is refused.
  --desk URL --machine NAME: join the team desk at URL as machine NAME (or NEXUS_DESK_URL, NEXUS_MACHINE);
  --desk-person ROLE (or NEXUS_DESK_PERSON): the person answering desk cards from here (docs/desk.md).
  Testing aid: with NEXUS_TESTING=1 in the environment, NEXUS_CLOCK_OFFSET_MS=N makes the kernel read its
  clock N ms ahead (negative: behind), so 24 h deadlines (parked calls, orchestration holds) can be tested
  by restarting a day later. Printed at start and by \`nexus status\`; only the environment can set it.`;

/** The kernel's clock: the system's, or shifted by NEXUS_CLOCK_OFFSET_MS when NEXUS_TESTING=1 (else ignored). */
export function clockFromEnv(env: NodeJS.ProcessEnv): { clock: Clock } | { clock: Clock; ignored: string } | { error: string } {
  const raw = env.NEXUS_CLOCK_OFFSET_MS;
  if (raw === undefined || raw === '') return { clock: systemClock };
  if (env.NEXUS_TESTING !== '1') return { clock: systemClock, ignored: 'NEXUS_CLOCK_OFFSET_MS is set but ignored: it is honoured only with NEXUS_TESTING=1.' };
  const ms = Number(raw);
  // Ten years either way is more than any deadline needs; anything else is a typo.
  if (!/^[+-]?\d+$/.test(raw.trim()) || !Number.isSafeInteger(ms) || Math.abs(ms) > 10 * 366 * 86_400_000)
    return { error: `NEXUS_CLOCK_OFFSET_MS must be a whole number of milliseconds within ten years (got ${JSON.stringify(raw)})` };
  return { clock: offsetClock(ms) };
}

export const serveCommand: CliCommand = async (argv, io) => {
  const p = parse(
    argv,
    {
      port: { type: 'string' },
      'no-web': { type: 'boolean', default: false },
      desk: { type: 'string' },
      machine: { type: 'string' },
      'desk-person': { type: 'string' },
    },
    io,
    USAGE,
  );
  if ('exit' in p) return p.exit;
  if (p.positionals.length) return usageError(io, USAGE, `unexpected ${p.positionals.join(' ')}`);
  let port = 0;
  if (p.values.port !== undefined) {
    port = Number(p.values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535) return usageError(io, USAGE, '--port must be a port number (0-65535)');
  }
  const dataDir = resolveDataDir(p.values['data-dir'] as string | undefined);
  const time = clockFromEnv(process.env);
  if ('error' in time) {
    io.err(`nexus: ${time.error}`);
    return 1;
  }
  let nexus;
  try {
    // Flags over the environment; neither: no desk, and NEXUS is exactly as without one.
    const env = { ...process.env };
    for (const [flag, key] of [
      ['desk', 'NEXUS_DESK_URL'],
      ['machine', 'NEXUS_MACHINE'],
      ['desk-person', 'NEXUS_DESK_PERSON'],
    ] as const) {
      const v = p.values[flag];
      if (typeof v === 'string') env[key] = v;
    }
    nexus = await createNexus({ dataDir, clock: time.clock, desk: deskOptionsFromEnv(env) });
  } catch (e) {
    io.err(`nexus: ${errorMessage(e)}`);
    return 1;
  }
  const closers: Array<() => Promise<void>> = [];
  try {
    let web: WebDoor | null = null;
    const sock = await startSocketDoor(nexus, { webOpen: () => web?.issueUrl() ?? null });
    closers.push(() => sock.close());
    let url: string | null = null;
    if (!p.values['no-web']) {
      const w = await startWebDoor({ nexus, port });
      web = w;
      closers.push(() => w.close());
      url = w.url;
    }
    if ('ignored' in time) io.err(`nexus: ${time.ignored}`);
    if (time.clock.offsetMs !== undefined) io.err(clockOffsetLine(time.clock.offsetMs));
    if (p.values.json) io.out(JSON.stringify({ url, socket: sock.path, data_dir: nexus.dataDir, pid: process.pid }));
    else {
      io.out(url ? `NEXUS is serving at ${url}` : 'NEXUS is serving (no browser host)');
      if (url) io.out(`(this address opens NEXUS in one tab, within ${LAUNCH_TTL_MS / 60_000} minutes; for another tab or after a reload: nexus open)`);
      io.out(`control socket: ${sock.path}`);
    }
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') io.err(`nexus: port ${port} is in use: pick another --port, or --port 0 for any free one`);
    else if (code === 'EACCES' && port > 0 && port < 1024) io.err(`nexus: port ${port} needs privileges: pick a port above 1023, or --port 0 for any free one`);
    else io.err(`nexus: ${errorMessage(e)}`);
    for (const c of closers.reverse()) await c().catch(() => {});
    await nexus.close();
    return 1;
  }
  const n = nexus;
  let broken = false;
  let uninstall = () => {};
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    uninstall = installLastResort({
      log: (line) => io.err(line),
      onBroken: () => {
        broken = true;
        stop();
      },
    });
  });
  for (const c of closers.reverse()) await c().catch(() => {});
  await n.close();
  uninstall(); // last: an error while closing is logged too
  return broken ? 70 : 0;
};
