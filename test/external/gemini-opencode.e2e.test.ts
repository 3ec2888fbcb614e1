// The real Gemini CLI (0.61.0) and OpenCode (1.18.33), offline against scripted local model servers (Gemini:
// the Gemini API; OpenCode: its bundled anthropic provider), with NEXUS installed by the real `nexus connect`:
// allow by rule, ask → Approve, ask → Deny with a reason the model reads, a file write's diff on the card, an MCP
// call parked and approved, Stop all, session end (Gemini: its SessionEnd; OpenCode: the idle time),
// connect/disconnect, and NEXUS not running.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { buildOnce, startKernel, type Kernel } from '../support/external.js';
import { clientWorld, type ClientWorld, type Run } from '../support/clients.js';
import { oneCall, startAnthropicModel, type ClientCall, type ClientModel, type ClientScript } from '../support/client-models.js';
import { startGeminiModel } from '../support/gemini-model.js';
import { gemini, geminiCommand, opencode, opencodeCommand } from '../support/more-clients.js';

type Client = 'gemini' | 'opencode';

interface Setup {
  client: Client;
  installed: boolean;
  shell(command: string): ClientCall;
  write(path: string, content: string): ClientCall;
  start(script: ClientScript): Promise<ClientModel>;
  go(w: ClientWorld, m: ClientModel, args?: string[]): Promise<Run>;
  /** The settings file (Gemini) or plugin (OpenCode) connect writes in the project. */
  file(w: ClientWorld): string;
}

const SETUPS: Setup[] = [
  {
    client: 'gemini',
    installed: geminiCommand() !== null,
    shell: (command) => ({ name: 'run_shell_command', input: { command, description: 'run it' } }),
    write: (file_path, content) => ({ name: 'write_file', input: { file_path, content } }),
    start: (script) => startGeminiModel(script),
    go: (w, m, args) => gemini(w, m.url, 'do it', args),
    file: (w) => join(w.project, '.gemini', 'settings.json'),
  },
  {
    client: 'opencode',
    installed: opencodeCommand() !== null,
    shell: (command) => ({ name: 'bash', input: { command, description: 'run it' } }),
    write: (filePath, content) => ({ name: 'write', input: { filePath, content } }),
    start: (script) => startAnthropicModel(script),
    go: (w, m) => opencode(w, m.url),
    file: (w) => join(w.project, '.opencode', 'plugin', 'nexus-approval.js'),
  },
];

const EVERYTHING = join(dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/package.json')), 'dist/index.js');
const lastResult = (m: ClientModel) => m.requests.flatMap((r) => r.toolResults).at(-1) ?? '';

for (const s of SETUPS) {
  // CI runs `npm ci`, which installs both; a checkout without them says why it skipped.
  if (!s.installed) console.warn(`${s.client} is not installed in node_modules: its real-client tests are skipped.`);
  describe.runIf(s.installed)(`${s.client} with NEXUS as its approver`, () => {
    let k: Kernel;
    let w: ClientWorld;
    const models: ClientModel[] = [];
    const connect = (timeout = '60') => {
      const r = w.nexus(['connect', s.client, '--project', w.project, '--timeout', timeout]);
      expect(r.code, r.stderr + r.stdout).toBe(0);
    };
    const model = async (call: ClientCall | ClientScript) => {
      const m = await s.start(typeof call === 'function' ? call : oneCall(call));
      models.push(m);
      connect();
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

    it('allow by rule: the call runs, and the row records the rule', async () => {
      await k.agent(s.client, w.project, [{ tool: 'bash', path: 'command', match: 'echo allowed > out.txt', verdict: 'allow' }]);
      const m = await model(s.shell('echo allowed > out.txt'));
      const r = await s.go(w, m);
      expect(r.code, r.stderr + r.stdout).toBe(0);
      expect(readFileSync(join(w.project, 'out.txt'), 'utf8').trim()).toBe('allowed');
      const runs = await k.call<Array<{ id: string }>>('runsList');
      const detail = await k.call<{ rows: Array<{ tool: string; state: string; granted_by: string }> }>('runsShow', { id: runs[0]!.id });
      expect(detail.rows[0]).toMatchObject({ tool: 'bash', state: 'succeeded', granted_by: 'rule' });
    }, 120_000);

    it('ask → a card for the client → Approve: the command ran', async () => {
      await k.agent(s.client, w.project, []);
      const m = await model(s.shell('echo approved > approved.txt'));
      const running = s.go(w, m);
      const card = await k.card(60_000);
      expect(card.effect).toMatchObject({ tool: 'bash', target: 'echo approved > approved.txt', client: { name: s.client } });
      await k.call('inboxApprove', { id: card.id });
      const r = await running;
      expect(r.code, r.stderr + r.stdout).toBe(0);
      expect(readFileSync(join(w.project, 'approved.txt'), 'utf8').trim()).toBe('approved');
    }, 120_000);

    it('ask → Deny with a reason: the model reads it and nothing ran', async () => {
      await k.agent(s.client, w.project, []);
      const m = await model(s.shell('echo nope > denied.txt'));
      const running = s.go(w, m);
      const card = await k.card(60_000);
      await k.call('inboxDeny', { id: card.id, reason: 'Not on a Friday.' });
      await running;
      expect(existsSync(join(w.project, 'denied.txt'))).toBe(false);
      expect(lastResult(m)).toContain('A person denied this call in NEXUS: Not on a Friday.');
    }, 120_000);

    it('a file write asks with its diff on the card; Approve lets the client write it', async () => {
      await k.agent(s.client, w.project, []);
      const m = await model(s.write(join(realpathSync(w.project), 'patched.txt'), 'line one\nline two\n'));
      const running = s.go(w, m);
      const card = await k.card(60_000);
      expect(card.effect).toMatchObject({ tool: 'write', diff: expect.stringContaining('+line two') });
      await k.call('inboxApprove', { id: card.id });
      const r = await running;
      expect(r.code, r.stderr + r.stdout).toBe(0);
      expect(readFileSync(join(w.project, 'patched.txt'), 'utf8')).toBe('line one\nline two\n');
    }, 120_000);

    it.runIf(s.client === 'gemini')(
      'an MCP call (mcp_everything_echo) parks as mcp__everything__echo; Approve: Gemini ran it',
      async () => {
        await k.agent(s.client, w.project, []);
        const echo: ClientCall = { name: 'mcp_everything_echo', input: { message: 'ping from the model' } };
        const m = await model((req) =>
          req.toolResults.length ? { text: 'done' } : req.toolNames.includes('mcp_everything_echo') ? { call: echo } : { text: 'ok' },
        );
        const file = s.file(w);
        const settings = JSON.parse(readFileSync(file, 'utf8'));
        writeFileSync(file, JSON.stringify({ ...settings, mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } } }));
        const running = s.go(w, m, ['--allowed-mcp-server-names', 'everything']);
        const card = await k.card(60_000);
        expect(card.tool).toBe('mcp__everything__echo');
        expect(JSON.stringify(card.effect)).toContain('ping from the model');
        await k.call('inboxApprove', { id: card.id });
        const r = await running;
        expect(r.code, r.stderr + r.stdout).toBe(0);
        expect(lastResult(m)).toContain('Echo: ping from the model');
      },
      120_000,
    );

    it.runIf(s.client === 'opencode')(
      'an MCP call (everything_echo) parks under the name OpenCode gives it; Approve: OpenCode ran it and the model read its answer',
      async () => {
        await k.agent(s.client, w.project, []);
        let named = '';
        const m = await model((req) => {
          if (req.toolResults.length) return { text: 'done' };
          named = req.toolNames.find((n) => /^everything.*echo$/.test(n)) ?? '';
          return named ? { call: { name: named, input: { message: 'ping from the model' } } } : { text: 'no echo tool offered' };
        });
        const running = opencode(w, m.url, 'do it', { everything: { type: 'local', command: [process.execPath, EVERYTHING, 'stdio'], enabled: true } });
        const card = await k.card(90_000);
        expect(named).not.toBe('');
        expect(card.tool).toBe(named);
        expect(JSON.stringify(card.effect)).toContain('ping from the model');
        await k.call('inboxApprove', { id: card.id });
        const r = await running;
        expect(r.code, r.stderr + r.stdout).toBe(0);
        expect(lastResult(m)).toContain('Echo: ping from the model');
      },
      180_000,
    );

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
    }, 180_000);

    it.runIf(s.client === 'gemini')(
      'session end: when Gemini exits its run has ended (succeeded)',
      async () => {
        await k.agent(s.client, w.project, [{ tool: 'bash', verdict: 'allow' }]);
        const m = await model(s.shell('echo ended > ended.txt'));
        const r = await s.go(w, m);
        expect(r.code, r.stderr + r.stdout).toBe(0);
        type Listed = { id: string; status: string; client?: { name: string } };
        const newest = async () => (await k.call<Listed[]>('runsList'))[0]!;
        for (let i = 0; i < 100 && (await newest()).status !== 'succeeded'; i++) await new Promise((res) => setTimeout(res, 50));
        expect(await newest()).toMatchObject({ status: 'succeeded', client: { name: 'gemini' } });
      },
      120_000,
    );

    it.runIf(s.client === 'opencode')(
      'session end: an OpenCode session with no call for clients.idleMinutes has ended (succeeded), and says why',
      async () => {
        // OpenCode tells a plugin nothing when it exits: its session ends by the idle time, here 1 minute.
        await k.call('settingsSet', { key: 'clients.idleMinutes', value: 1 });
        try {
          await k.agent(s.client, w.project, [{ tool: 'bash', verdict: 'allow' }]);
          const m = await model(s.shell('echo ended > ended.txt'));
          const r = await s.go(w, m);
          expect(r.code, r.stderr + r.stdout).toBe(0);
          type Listed = { id: string; status: string; client?: { name: string } };
          const newest = async () => (await k.call<Listed[]>('runsList'))[0]!;
          expect(await newest()).toMatchObject({ status: 'running', client: { name: 'opencode' } });
          for (let i = 0; i < 200 && (await newest()).status !== 'succeeded'; i++) await new Promise((res) => setTimeout(res, 500));
          const ended = await newest();
          expect(ended).toMatchObject({ status: 'succeeded', client: { name: 'opencode' } });
          const detail = await k.call<{ final_answer: string | null }>('runsShow', { id: ended.id });
          expect(detail.final_answer).toBe('The opencode session ended: no call for 1 min.');
        } finally {
          await k.call('settingsSet', { key: 'clients.idleMinutes', value: 30 });
        }
      },
      240_000,
    );

    it("the expiry answer (deny) arrives before the client's own timeout, and the card closes", async () => {
      await k.agent(s.client, w.project, []);
      const m = await model(s.shell('echo late > late.txt'));
      // --timeout 10: Gemini kills its hook at 10000 ms and then RUNS the call; NEXUS expires the card at 7.5 s
      // and the hook answers deny before that. (OpenCode has no timeout: the hook's own 10 s bounds the wait.)
      connect('10');
      const running = s.go(w, m);
      await k.card(60_000);
      await running;
      expect(existsSync(join(w.project, 'late.txt'))).toBe(false);
      expect(lastResult(m)).toContain('Nobody approved this call in time');
      expect(await k.call<unknown[]>('inboxList')).toEqual([]);
    }, 120_000);

    it("connect and disconnect leave the person's other settings intact", async () => {
      await model(s.shell('true'));
      const file = s.file(w);
      if (s.client === 'gemini') {
        const mine = { ...JSON.parse(readFileSync(file, 'utf8')), ui: { theme: 'GitHub' } };
        delete mine.mcpServers;
        writeFileSync(file, JSON.stringify(mine, null, 2));
        expect(mine.hooks.BeforeTool[0].hooks[0].timeout).toBe(60_000);
      } else expect(readFileSync(file, 'utf8')).toContain("'tool.execute.before'");
      const off = w.nexus(['disconnect', s.client, '--project', w.project]);
      expect(off.code, off.stderr).toBe(0);
      if (s.client === 'gemini') expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ ui: { theme: 'GitHub' } });
      else expect(existsSync(file)).toBe(false);
    }, 60_000);

    it('NEXUS not running: the hook denies with a sentence that says so', async () => {
      mkdirSync(w.project, { recursive: true });
      const m = await model(s.shell('echo down > down.txt'));
      await k.stop();
      await s.go(w, m);
      expect(existsSync(join(w.project, 'down.txt'))).toBe(false);
      expect(lastResult(m)).toContain('NEXUS is not running');
    }, 120_000);
  });
}
