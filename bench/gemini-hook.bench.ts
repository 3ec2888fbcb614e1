// Gemini CLI's hook: the time NEXUS adds to a tool call a rule allows, as Gemini sees it — nexus-hook.mjs
// --client gemini spawned with Gemini's BeforeTool JSON on stdin, asking a live kernel, answering the top-level
// `{"decision":"allow"}`. Budget as for Claude Code (external.bench.ts): p50 ≤ 50 ms beyond a bare Node hook
// that answers allow without asking anything, spawned alternately with it so both see the same machine load.
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createNexus } from '../electron/app.js';
import { startSocketDoor } from '../electron/doors/socket.js';
import { saveAgent } from '../electron/agents/profiles.js';
import { line, pct, timeSpawn } from './report.js';
import { removeDir } from '../test/support/world.js';

const HOOK = join(import.meta.dirname, '..', 'dist', 'hook', 'nexus-hook.mjs');
const N = 40;
const BARE = 'process.stdin.resume();process.stdin.on("end",()=>console.log(JSON.stringify({decision:"allow"})))';

export async function run(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'nexus-bench-gem-'));
  const project = join(dir, 'proj');
  mkdirSync(project);
  const nexus = await createNexus({ dataDir: join(dir, 'data'), modules: { external: true } });
  const door = await startSocketDoor(nexus);
  try {
    saveAgent(nexus.kernel, {
      name: 'gemini-proj',
      mode: 'ask',
      approval_rules: [{ tool: 'bash', verdict: 'allow' }],
      model: { provider: 'anthropic', baseURL: 'http://127.0.0.1:9', model: 'x' },
      external: { client: 'gemini', project },
    });
    const event = (i: number) =>
      JSON.stringify({
        session_id: 'bench',
        transcript_path: join(dir, 't.jsonl'),
        cwd: project,
        hook_event_name: 'BeforeTool',
        timestamp: new Date().toISOString(),
        tool_name: 'run_shell_command',
        tool_input: { command: `echo ${i}`, description: 'bench' },
      });
    const args = [HOOK, '--client', 'gemini', '--data-dir', nexus.dataDir, '--timeout-s', '600'];
    const first = await timeSpawn(args, event(-1));
    if (JSON.parse(first.out).decision !== 'allow') throw new Error(`the hook did not allow: ${first.out}`);
    const hook: number[] = [];
    const bare: number[] = [];
    for (let i = 0; i < N; i++) {
      hook.push((await timeSpawn(args, event(i))).ms);
      bare.push((await timeSpawn(['-e', BARE], event(i))).ms);
    }
    const p50 = pct(
      hook.map((h, i) => h - bare[i]!),
      50,
    );
    line('Gemini CLI: added to an allowed call (hook − bare node), p50', `${p50.toFixed(1)} ms`, '50 ms', p50 <= 50);
    line('  the hook process, wall time p50 / p95', `${pct(hook, 50).toFixed(1)} / ${pct(hook, 95).toFixed(1)} ms`, '', null);
    line('  floor: a bare node hook that asks nothing, p50', `${pct(bare, 50).toFixed(1)} ms`, '', null);
  } finally {
    await door.close();
    await nexus.close();
    removeDir(dir); // and the workspaces the kernel made beside it
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await run();
