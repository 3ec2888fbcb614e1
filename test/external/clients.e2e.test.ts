// The real Claude Code (2.1.197) and Codex (0.169.0) CLIs, offline against scripted local model servers, with
// NEXUS installed as their hook by the real `nexus connect`. For each client: allow by rule, deny by rule (the
// model reads the reason), ask → Approve → the command ran, ask → Deny with a reason → the model read it and
// nothing ran, Stop all, NEXUS not running, and the expiry answer arriving before the client's own timeout.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { buildOnce, startKernel, type Kernel } from '../support/external.js';
import { clientWorld, run as runProcess, type ClientWorld, type Run } from '../support/clients.js';
import { oneCall, startAnthropicModel, startResponsesModel, type ClientCall, type ClientModel } from '../support/client-models.js';

type Client = 'claude-code' | 'codex';

interface Setup {
  client: Client;
  /** The call the model makes to run `command` through the client's shell tool. */
  shell(command: string): ClientCall;
  start(call: ClientCall): Promise<ClientModel>;
  go(w: ClientWorld, m: ClientModel): Promise<Run>;
}

const SETUPS: Setup[] = [
  {
    client: 'claude-code',
    shell: (command) => ({ name: 'Bash', input: { command, description: 'run it' } }),
    start: (call) => startAnthropicModel(oneCall(call)),
    go: (w, m) => w.claude(m.url),
  },
  {
    client: 'codex',
    shell: (command) => ({ name: 'exec_command', input: { cmd: command } }),
    start: (call) => startResponsesModel(oneCall(call)),
    go: (w, m) => w.codex(m.url),
  },
];

const EVERYTHING = join(dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/package.json')), 'dist/index.js');

const lastResult = (m: ClientModel) => m.requests.flatMap((r) => r.toolResults).at(-1) ?? '';

for (const s of SETUPS) {
  describe(`${s.client} with NEXUS as its approver`, () => {
    let k: Kernel;
    let w: ClientWorld;
    const models: ClientModel[] = [];
    /** The person's own config.toml as written before the last connect. */
    let personsConfig = '';
    const model = async (call: ClientCall) => {
      const m = await s.start(call);
      models.push(m);
      if (s.client === 'codex') personsConfig = readFileSync(w.writeCodexConfig(m.url), 'utf8');
      const r = w.nexus(
        s.client === 'claude-code' ? ['connect', 'claude-code', '--project', w.project, '--timeout', '60'] : ['connect', 'codex', '--timeout', '60'],
      );
      expect(r.code, r.stderr + r.stdout).toBe(0);
      return m;
    };

    beforeAll(async () => {
      buildOnce();
      k = await startKernel();
      w = clientWorld(k.dataDir);
    }, 120_000);
    afterAll(async () => {
      for (const m of models) await m.close();
      await k?.close();
      w?.cleanup();
    });

    it('allow by rule: the call runs, and the row records the rule and that the client ran it', async () => {
      await k.agent(s.client, w.project, [{ tool: 'bash', path: 'command', match: 'echo allowed > out.txt', verdict: 'allow' }]);
      const m = await model(s.shell('echo allowed > out.txt'));
      const r = await s.go(w, m);
      expect(r.code, r.stderr).toBe(0);
      expect(readFileSync(join(w.project, 'out.txt'), 'utf8').trim()).toBe('allowed');
      const runs = await k.call<Array<{ id: string; agent: string }>>('runsList');
      const detail = await k.call<{ rows: Array<{ tool: string; state: string; granted_by: string; result: { content: Array<{ text: string }> } }> }>(
        'runsShow',
        { id: runs[0]!.id },
      );
      expect(detail.rows[0]).toMatchObject({ tool: 'bash', state: 'succeeded', granted_by: 'rule' });
      expect(detail.rows[0]!.result.content[0]!.text).toMatch(/runs this call itself/);
    }, 90_000);

    it('session end: when the client exits its run has ended (succeeded); Runs and `nexus runs list` show the client, folder and last call; Stop all leaves it', async () => {
      await k.agent(s.client, w.project, [{ tool: 'bash', verdict: 'allow' }]);
      const m = await model(s.shell('echo ended > ended.txt'));
      const r = await s.go(w, m);
      expect(r.code, r.stderr).toBe(0);
      type Listed = { id: string; status: string; client?: { name: string; folder?: string; last_call?: { tool: string } | null } };
      const newest = async () => (await k.call<Listed[]>('runsList'))[0]!;
      for (let i = 0; i < 100 && (await newest()).status !== 'succeeded'; i++) await new Promise((res) => setTimeout(res, 50));
      const run = await newest();
      expect(run).toMatchObject({ status: 'succeeded', client: { name: s.client, folder: realpathSync(w.project), last_call: { tool: 'bash' } } });
      // Spawned without blocking: this process holds the kernel that answers the command.
      const listed = await runProcess([process.execPath, join(import.meta.dirname, '..', '..', 'bin', 'nexus.cjs'), 'runs', 'list', '--data-dir', k.dataDir], {
        cwd: w.project,
        env: { PATH: process.env.PATH, HOME: w.home },
      });
      expect(listed.code, listed.stderr).toBe(0);
      expect(listed.stdout).toContain(`${s.client} session in ${realpathSync(w.project)}; last call bash at`);
      await k.call('stopAll');
      expect((await k.call<{ status: string }>('runsShow', { id: run.id })).status).toBe('succeeded');
      await k.call('resume');
    }, 90_000);

    it("deny by rule: nothing runs and the model reads the rule's reason", async () => {
      writeFileSync(join(w.project, 'keep.txt'), 'keep');
      await k.agent(s.client, w.project, [{ tool: 'bash', path: 'command', match: 'rm *', verdict: 'deny', reason: 'No deleting files in this project.' }]);
      const m = await model(s.shell('rm -f keep.txt'));
      await s.go(w, m);
      expect(existsSync(join(w.project, 'keep.txt'))).toBe(true);
      expect(lastResult(m)).toContain('No deleting files in this project.');
    }, 90_000);

    it("ask → a card whose deadline is the hook's, the same on the card and in the event → Approve: the command ran", async () => {
      await k.agent(s.client, w.project, []);
      const m = await model(s.shell('echo approved > approved.txt'));
      const running = s.go(w, m);
      const card = (await k.card()) as Awaited<ReturnType<Kernel['card']>> & { expires_at: string; run_id: string };
      // --timeout 60: NEXUS may wait 45 s (the client kills its hook at 60 s), never the usual 24 h.
      const left = Date.parse(card.expires_at) - Date.now();
      expect(left).toBeGreaterThan(30_000);
      expect(left).toBeLessThanOrEqual(45_000);
      const events = await k.call<{ items: Array<{ type: string; data: { row_id?: string; expires_at?: string } }> }>('runsEvents', {
        run_id: card.run_id,
      });
      const required = events.items.filter((e) => e.type === 'approval_required' && e.data.row_id === card.id);
      expect(required.map((e) => e.data.expires_at)).toEqual([card.expires_at]);
      expect(card.effect).toMatchObject({
        tool: 'bash',
        target: 'echo approved > approved.txt',
        client: { name: s.client, folder: expect.stringContaining('proj') },
      });
      await k.call('inboxApprove', { id: card.id });
      const r = await running;
      expect(r.code, r.stderr).toBe(0);
      expect(readFileSync(join(w.project, 'approved.txt'), 'utf8').trim()).toBe('approved');
    }, 90_000);

    // Codex calls MCP tools as deferred namespace calls, which this scripted Responses server does not emit.
    it.runIf(s.client === 'claude-code')(
      'an MCP call (the client runs it) parks with a card showing its name and input; Approve: the client ran it',
      async () => {
        await k.agent(s.client, w.project, []);
        const mcp = join(w.project, '..', 'mcp.json');
        writeFileSync(mcp, JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } } }));
        const echo: ClientCall = { name: 'mcp__everything__echo', input: { message: 'ping from the model' } };
        const m = await startAnthropicModel((req) =>
          req.toolResults.length ? { text: 'done' } : req.toolNames.includes('mcp__everything__echo') ? { call: echo } : { text: 'ok' },
        );
        models.push(m);
        const c = w.nexus(['connect', 'claude-code', '--project', w.project, '--timeout', '60']);
        expect(c.code, c.stderr).toBe(0);
        const running = w.claude(m.url, 'echo it', {}, ['--mcp-config', mcp, '--strict-mcp-config']);
        const card = await k.card();
        expect(card.tool).toBe('mcp__everything__echo');
        expect(card.effect).toMatchObject({ tool: 'mcp__everything__echo', client: { name: 'claude-code', tool_name: 'mcp__everything__echo' } });
        expect(JSON.stringify(card.effect)).toContain('ping from the model');
        await k.call('inboxApprove', { id: card.id });
        const r = await running;
        expect(r.code, r.stderr).toBe(0);
        expect(lastResult(m)).toContain('Echo: ping from the model');
      },
      90_000,
    );

    it('a file change asks with its diff on the card; Approve lets the client write it', async () => {
      await k.agent(s.client, w.project, []);
      const call: ClientCall =
        s.client === 'codex'
          ? { custom: 'apply_patch', input: '*** Begin Patch\n*** Add File: patched.txt\n+line one\n+line two\n*** End Patch\n' }
          : { name: 'Write', input: { file_path: join(w.project, 'patched.txt'), content: 'line one\nline two\n' } };
      const m = await model(call);
      const running = s.go(w, m);
      const card = await k.card();
      expect(card.effect).toMatchObject({ tool: 'write', target: 'patched.txt', diff: expect.stringContaining('+line two') });
      await k.call('inboxApprove', { id: card.id });
      const r = await running;
      expect(r.code, r.stderr).toBe(0);
      expect(readFileSync(join(w.project, 'patched.txt'), 'utf8')).toBe('line one\nline two\n');
    }, 90_000);

    it('ask → Deny with a reason: the model reads it and nothing ran', async () => {
      await k.agent(s.client, w.project, []);
      const m = await model(s.shell('echo nope > denied.txt'));
      const running = s.go(w, m);
      const card = await k.card();
      await k.call('inboxDeny', { id: card.id, reason: 'Not on a Friday.' });
      await running;
      expect(existsSync(join(w.project, 'denied.txt'))).toBe(false);
      expect(lastResult(m)).toContain('A person denied this call in NEXUS: Not on a Friday.');
    }, 90_000);

    it('Stop all denies the next call with its sentence until Resume', async () => {
      await k.agent(s.client, w.project, [{ tool: 'bash', verdict: 'allow' }]);
      await k.call('stopAll');
      const m = await model(s.shell('echo stopped > stopped.txt'));
      await s.go(w, m);
      expect(existsSync(join(w.project, 'stopped.txt'))).toBe(false);
      expect(lastResult(m)).toContain('Stop all is engaged');
      await k.call('resume');
      const again = await model(s.shell('echo resumed > resumed.txt'));
      await s.go(w, again);
      expect(existsSync(join(w.project, 'resumed.txt'))).toBe(true);
    }, 120_000);

    it("the expiry answer (deny) arrives before the client's own timeout, and the card closes", async () => {
      await k.agent(s.client, w.project, []);
      const m = await model(s.shell('echo late > late.txt'));
      // A 10 s client timeout: NEXUS expires the card at 7.5 s and answers deny; had the client killed the hook
      // at 10 s, it would have treated that as "no opinion" and run the command.
      const r2 = w.nexus(
        s.client === 'claude-code' ? ['connect', 'claude-code', '--project', w.project, '--timeout', '10'] : ['connect', 'codex', '--timeout', '10'],
      );
      expect(r2.code, r2.stderr).toBe(0);
      const running = s.go(w, m);
      await k.card();
      await running;
      expect(existsSync(join(w.project, 'late.txt'))).toBe(false);
      expect(lastResult(m)).toContain('Nobody approved this call in time');
      expect(await k.call<unknown[]>('inboxList')).toEqual([]);
    }, 90_000);

    it("connect and disconnect leave the person's other settings intact (Codex: with the trust Codex computed)", async () => {
      await model(s.shell('true'));
      const file = s.client === 'codex' ? join(w.codexHome, 'config.toml') : join(w.project, '.claude', 'settings.json');
      const connected = readFileSync(file, 'utf8');
      if (s.client === 'codex') {
        expect(connected).toMatch(/\[hooks\.state\."[^"]+config\.toml:pre_tool_use:0:0"\]\ntrusted_hash = "sha256:[0-9a-f]{64}"/);
        const off = w.nexus(['disconnect', 'codex']);
        expect(off.code, off.stderr).toBe(0);
        // The person's own file, byte for byte (comments included).
        expect(readFileSync(file, 'utf8')).toBe(personsConfig);
        expect(personsConfig).toContain('# my codex settings');
      } else {
        const mine = { ...JSON.parse(connected), theme: 'dark', permissions: { deny: ['Bash(rm:*)'] } };
        writeFileSync(file, JSON.stringify(mine, null, 2));
        const off = w.nexus(['disconnect', 'claude-code', '--project', w.project]);
        expect(off.code, off.stderr).toBe(0);
        const left = JSON.parse(readFileSync(file, 'utf8'));
        expect(left).toEqual({ theme: 'dark', permissions: { deny: ['Bash(rm:*)'] } });
      }
    }, 60_000);

    it('NEXUS not running: the hook denies with a sentence that says so', async () => {
      const m = await model(s.shell('echo down > down.txt'));
      await k.stop();
      await s.go(w, m);
      expect(existsSync(join(w.project, 'down.txt'))).toBe(false);
      expect(lastResult(m)).toContain('NEXUS is not running');
    }, 90_000);
  });
}
