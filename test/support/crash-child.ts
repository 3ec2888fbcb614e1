// Child process for the crash test: a real kernel on the given data dir, with the socket door, one row
// running (a long bash) and one parked; prints their ids as one JSON line, then waits to be SIGKILLed.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createNexus } from '../../electron/app.js';
import { startSocketDoor } from '../../electron/doors/socket.js';

const dataDir = process.argv[2];
const nexus = await createNexus({ dataDir, modules: {} });
await startSocketDoor(nexus);
const k = nexus.kernel;
const run = k.createRun({ agent: null, mode: 'ask', rules: [{ tool: 'bash', path: 'command', match: 'echo*', verdict: 'allow' }] });
const running = k.submitRow(run.id, { tool: 'bash', input: { command: 'echo $$ > sleeper.pid; exec sleep 60' }, origin: 'model' });
const parked = k.submitRow(run.id, { tool: 'write', input: { path: 'f.txt', content: 'x' }, origin: 'model' });
const pidFile = join(run.workspace, 'sleeper.pid');
while (!existsSync(pidFile) || !readFileSync(pidFile, 'utf8').trim()) await new Promise((r) => setTimeout(r, 10));
process.stdout.write(
  `${JSON.stringify({ run: run.id, running: running.id, runningState: k.getRow(running.id)!.state, parked: parked.id, expires_at: parked.expires_at, sleeper: Number(readFileSync(pidFile, 'utf8')) })}\n`,
);
setInterval(() => {}, 1000);
