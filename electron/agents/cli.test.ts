// The real command line against a real kernel: `nexus serve` in its own process, the scripted model in this
// one (HTTP), then `nexus agents add`, `nexus run AGENT PROMPT --wait`, `nexus inbox --json` and
// `nexus approve ID` as separate processes. A fan with a granted, a parked-then-approved and a denied call.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startScriptedModel } from '../../test/support/scripted-model.js';
import { stopChild, world, type World } from '../../test/support/world.js';

const ROOT = join(import.meta.dirname, '..', '..');
const ENTRY = `import(${JSON.stringify(join(ROOT, 'electron/cli/main.ts'))}).then((m) => m.main(process.argv.slice(1))).then((c) => process.exit(c), (e) => { console.error(e); process.exit(70); })`;

const nexus = (args: string[], env: NodeJS.ProcessEnv = {}): ChildProcess =>
  spawn(process.execPath, ['--import', 'tsx', '-e', ENTRY, ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });

const finished = (child: ChildProcess): Promise<{ code: number | null; out: string; err: string }> =>
  new Promise((resolve) => {
    let out = '';
    let err = '';
    child.stdout!.on('data', (d) => (out += d));
    child.stderr!.on('data', (d) => (err += d));
    child.on('close', (code) => resolve({ code, out, err }));
  });
const cli = (args: string[]) => finished(nexus(args));

let w: World;
beforeEach(() => {
  w = world();
});
afterEach(() => w.cleanup());

describe('nexus run / inbox / approve against nexus serve', () => {
  it('a fan through the CLI: granted, parked and approved with `nexus approve`, denied; `run --wait` prints the answer', async () => {
    const dir = w.dir('cli-turns');
    const model = await startScriptedModel({
      script: [
        {
          toolCalls: [
            { name: 'bash', input: { command: 'echo granted' } },
            { name: 'bash', input: { command: 'echo needs-approval' } },
            { name: 'bash', input: { command: 'rm -rf /tmp/nothing' } },
          ],
        },
        { text: 'CLI fan done.' },
      ],
    });
    w.defer(() => model.close());
    const server = nexus(['serve', '--data-dir', dir, '--port', '0']);
    w.defer(() => stopChild(server));
    let served = '';
    server.stdout!.on('data', (d) => (served += d));
    server.stderr!.on('data', (d) => (served += d));
    for (let i = 0; i < 1000 && !/control socket/.test(served); i++) await new Promise((r) => setTimeout(r, 50));
    expect(served).toMatch(/control socket/);

    const agentFile = join(dir, 'agent.json');
    writeFileSync(
      agentFile,
      JSON.stringify({
        name: 'cli-agent',
        model: { provider: 'chat-completions', baseURL: model.baseURL, model: 'scripted-1' },
        mode: 'ask',
        approval_rules: [
          { tool: 'bash', path: 'command', match: 'echo granted', verdict: 'allow' },
          { tool: 'bash', path: 'command', match: 'rm *', verdict: 'deny', reason: 'no removals' },
        ],
      }),
    );
    expect((await cli(['agents', 'add', agentFile, '--data-dir', dir])).code).toBe(0);

    const run = finished(nexus(['run', 'cli-agent', 'do the three things', '--wait', '--data-dir', dir]));
    let items: Array<{ id: string; kind: string; tool: string; target: string }> = [];
    for (let i = 0; i < 1000 && !items.length; i++) {
      const r = await cli(['inbox', '--json', '--data-dir', dir]);
      expect(r.code).toBe(0);
      items = JSON.parse(r.out);
      if (!items.length) await new Promise((res) => setTimeout(res, 100));
    }
    expect(items).toMatchObject([{ kind: 'autonomy', tool: 'bash', target: 'echo needs-approval' }]);
    const approved = await cli(['approve', items[0]!.id, '--data-dir', dir]);
    expect(approved.code, approved.err).toBe(0);

    const done = await run;
    expect(done.code, done.err).toBe(0);
    expect(done.out.trim()).toBe('CLI fan done.');
    expect(model.requests[1]!.toolResults.map((r) => r.text.split('\n')[0])).toEqual([
      'granted',
      'needs-approval',
      'The approval stage denied this tool call: no removals',
    ]);

    const list = JSON.parse((await cli(['runs', 'list', '--json', '--data-dir', dir])).out) as Array<{ id: string }>;
    const shown = JSON.parse((await cli(['runs', 'show', list[0]!.id, '--json', '--data-dir', dir])).out);
    expect(shown).toMatchObject({ agent: 'cli-agent', status: 'succeeded' });
    expect(shown.rows.map((r: { origin: string; tool: string; state: string }) => [r.origin, r.tool, r.state])).toEqual([
      ['model', 'bash', 'succeeded'],
      ['model', 'bash', 'succeeded'],
      ['model', 'bash', 'failed'],
    ]);
    expect(shown.rows[2].error).toMatchObject({ code: 'approval_denied', detail: 'no removals' });
  }, 60_000);
});
