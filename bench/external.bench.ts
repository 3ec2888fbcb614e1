// A connected client's hook: the time NEXUS adds to a tool call that a rule allows, as the client sees it — the
// hook process (dist/hook/nexus-hook.mjs) spawned with the hook JSON on stdin, connecting to a live kernel's
// control socket, answering allow. Budget: p50 ≤ 50 ms, for the hook's wall time beyond what any command hook
// written in Node costs (a bare `node` hook that answers allow without asking anything, spawned alternately
// with it, so both see the same machine load). Printed too: the hook's absolute wall time, the bare floor, and
// the kernel's own share (the externalToolUse call in process).
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createNexus } from '../electron/app.js';
import { startSocketDoor } from '../electron/doors/socket.js';
import { saveAgent } from '../electron/agents/profiles.js';
import { apply } from '../electron/external/connect/plan.js';
import { dispatch } from '../electron/api/dispatch.js';
import { line, now, pct, timeSpawn } from './report.js';
import { removeDir } from '../test/support/world.js';

const ROOT = join(import.meta.dirname, '..');
const HOOK = join(ROOT, 'dist', 'hook', 'nexus-hook.mjs');
const N = 40;

export async function run(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'nexus-bench-ext-'));
  const project = join(dir, 'proj');
  mkdirSync(project);
  const nexus = await createNexus({ dataDir: join(dir, 'data'), modules: { external: true } });
  const door = await startSocketDoor(nexus);
  try {
    // Connected as a person connects it: the hook and Claude Code's own sandbox settings, which the hook checks.
    await apply({ client: 'claude-code', scope: 'project', project, dataDir: join(dir, 'data') }, 'connect');
    saveAgent(nexus.kernel, {
      name: 'claude-code-proj',
      mode: 'ask',
      approval_rules: [{ tool: 'bash', verdict: 'allow' }],
      model: { provider: 'anthropic', baseURL: 'http://127.0.0.1:9', model: 'x' },
      external: { client: 'claude-code', project },
    });
    const event = (i: number) => ({
      session_id: 'bench',
      cwd: project,
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: `echo ${i}` },
      tool_use_id: `t${i}`,
    });
    const args = [HOOK, '--client', 'claude-code', '--data-dir', nexus.dataDir, '--timeout-s', '600'];
    const first = await timeSpawn(args, JSON.stringify(event(-1)));
    if (!first.out.includes('"permissionDecision":"allow"')) throw new Error(`the hook did not allow: ${first.out}`);
    const hook: number[] = [];
    const bare: number[] = [];
    const inproc: number[] = [];
    for (let i = 0; i < N; i++) {
      hook.push((await timeSpawn(args, JSON.stringify(event(i)))).ms);
      bare.push(
        (
          await timeSpawn(
            [
              '-e',
              'process.stdin.resume();process.stdin.on("end",()=>console.log(JSON.stringify({hookSpecificOutput:{hookEventName:"PreToolUse",permissionDecision:"allow"}})))',
            ],
            JSON.stringify(event(i)),
          )
        ).ms,
      );
      const t0 = now();
      await dispatch(nexus.handlers, 'externalToolUse', { client: 'claude-code', event: event(1000 + i) }, { door: 'internal' });
      inproc.push(now() - t0);
    }
    const added = hook.map((h, i) => h - bare[i]!);
    const p50 = pct(added, 50);
    line('connected client: added to an allowed call (hook − bare node), p50', `${p50.toFixed(1)} ms`, '50 ms', p50 <= 50);
    line('  the hook process, wall time p50 / p95', `${pct(hook, 50).toFixed(1)} / ${pct(hook, 95).toFixed(1)} ms`, '', null);
    line('  floor: a bare node hook that asks nothing, p50', `${pct(bare, 50).toFixed(1)} ms`, '', null);
    line("  the kernel's share (externalToolUse in process), p50", `${pct(inproc, 50).toFixed(2)} ms`, '', null);
  } finally {
    await door.close();
    await nexus.close();
    removeDir(dir); // and the workspaces the kernel made beside it
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await run();
