// Agents end to end over real HTTP and real MCP servers: runner tools allowed by a rule on the served name
// (and qualified names when two runners serve one tool), provider failures mid-run, both wire formats,
// streaming and not, and the `ask` tool answered through the inbox.
import { afterEach, describe, expect, it } from 'vitest';
import { createRequire } from 'node:module';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { startHttpMcpServer, type HttpMcpServer } from '../../test/support/mcp-http-server.js';
import { runnerId } from '../runners/runner-id.js';
import { turnsHarness, type TurnsHarness } from '../../test/support/turns.js';

const require = createRequire(import.meta.url);
const EVERYTHING = join(dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist/index.js');

let h: TurnsHarness;
const servers: HttpMcpServer[] = [];
afterEach(async () => {
  await h?.cleanup();
  for (const s of servers.splice(0)) await s.close();
});
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('MCP runners in a run', () => {
  it("a stdio runner's tool is allowed by a rule on its served name; an unnamed one is refused; no child outlives NEXUS", async () => {
    h = await turnsHarness({
      script: [
        {
          toolCalls: [
            { name: 'echo', input: { message: 'through the stage' } },
            { name: 'get-sum', input: { a: 1, b: 2 } },
          ],
        },
        { text: 'echoed' },
      ],
    });
    h.agent({
      name: 'mcpuser',
      mode: 'rules',
      approval_rules: [{ tool: 'echo', verdict: 'allow' }],
      mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } },
    });
    const run = h.turns.startTurn({ agent: 'mcpuser', prompt: 'echo it' });
    const ended = await h.ended(run.id);
    expect(ended.status).toBe('succeeded');
    expect(h.model.requests[0]!.toolNames).toEqual(expect.arrayContaining(['echo', 'get-sum', 'bash']));
    const [echo, sum] = h.nexus.kernel.listRows(run.id);
    // Shown as plain `echo` (one runner serves it); the row keeps its concrete runner target.
    expect(echo).toMatchObject({
      tool: 'echo',
      runner: runnerId('everything'),
      wire_tool: `echo__${runnerId('everything')}`,
      state: 'succeeded',
      granted_by: 'rule',
    });
    expect(h.model.requests[0]!.toolNames).not.toContain(`echo__${runnerId('everything')}`);
    expect(sum).toMatchObject({ tool: 'get-sum', state: 'failed', error: { code: 'approval_denied', detail: 'no approval rule allows get-sum' } });
    expect(h.model.requests[1]!.toolResults[0]!.text).toBe('Echo: through the stage');
    const pid = h.turns.runners.get(
      'mcpuser',
      'everything',
      { command: process.execPath, args: [EVERYTHING, 'stdio'] },
      ended.workspace,
      h.nexus.kernel.sandboxPolicy(ended, { network: [] }),
    ).pid!;
    expect(alive(pid)).toBe(true);
    await h.nexus.close();
    expect(alive(pid)).toBe(false);
  });

  it("removing an agent closes its MCP servers' child processes", async () => {
    h = await turnsHarness({ script: [{ toolCalls: [{ name: 'echo', input: { message: 'x' } }] }, { text: 'ok' }] });
    const cfg = { command: process.execPath, args: [EVERYTHING, 'stdio'] };
    h.agent({ name: 'removable', mcpServers: { everything: cfg } });
    const ended = await h.ended(h.turns.startTurn({ agent: 'removable', prompt: 'go' }).id);
    const pid = h.turns.runners.get('removable', 'everything', cfg, ended.workspace, h.nexus.kernel.sandboxPolicy(ended, { network: [] })).pid!;
    expect(alive(pid)).toBe(true);
    expect((await h.api('agentsRemove', { name: 'removable' })).ok).toBe(true);
    for (let i = 0; i < 1000 && alive(pid); i++) await new Promise((r) => setTimeout(r, 20));
    expect(alive(pid)).toBe(false);
  });

  it('two runners serving the same tool: the model sees NAME__<runner id>; the rule matches the served name; the row keeps its runner', async () => {
    servers.push(await startHttpMcpServer({ lookup: { handler: (a) => `alpha found ${String(a.message)}` } }));
    servers.push(await startHttpMcpServer({ lookup: { handler: (a) => `beta found ${String(a.message)}` } }));
    const beta = `lookup__${runnerId('beta')}`;
    h = await turnsHarness({
      script: (req, i) => (i === 0 ? { toolCalls: [{ name: req.toolNames.includes(beta) ? beta : 'missing', input: { message: 'x' } }] } : { text: 'ok' }),
    });
    h.agent({
      name: 'twoservers',
      mode: 'rules',
      approval_rules: [{ tool: 'lookup', verdict: 'allow' }],
      mcpServers: { alpha: { url: servers[0]!.url }, beta: { url: servers[1]!.url } },
    });
    const run = h.turns.startTurn({ agent: 'twoservers', prompt: 'look it up' });
    await h.ended(run.id);
    expect(h.model.requests[0]!.toolNames).toEqual(expect.arrayContaining([`lookup__${runnerId('alpha')}`, beta]));
    expect(h.model.requests[0]!.toolNames).not.toContain('lookup');
    const [row] = h.nexus.kernel.listRows(run.id);
    expect(row).toMatchObject({ wire_tool: beta, tool: 'lookup', runner: runnerId('beta'), state: 'succeeded', granted_by: 'rule' });
    expect(h.model.requests[1]!.toolResults[0]!.text).toBe('beta found x');
    expect(servers[0]!.calls).toEqual([]);
    expect(servers[1]!.calls).toEqual([{ tool: 'lookup', args: { message: 'x' } }]);
  });
});

describe('runner tool names', () => {
  it('a served tool whose name no model API accepts is skipped (reported), the others are offered', async () => {
    servers.push(await startHttpMcpServer({ 'files.read': { handler: () => 'x' }, good_tool: { handler: () => 'y' } }));
    h = await turnsHarness({ script: [{ text: 'ok' }] });
    h.agent({ name: 'picky', mcpServers: { srv: { url: servers[0]!.url } } });
    const run = h.turns.startTurn({ agent: 'picky', prompt: 'go' });
    await h.ended(run.id);
    expect(h.model.requests[0]!.toolNames).toContain('good_tool');
    expect(h.model.requests[0]!.toolNames.some((n) => n.startsWith('files.read'))).toBe(false);
    const shown = await h.api('runsShow', { id: run.id });
    expect(shown.value.events?.find((e: { type: string }) => e.type === 'runner_tool_skipped')?.data).toMatchObject({ server: 'srv', tool: 'files.read' });
  });
});

describe('providers in a run', () => {
  for (const fault of ['close', 'garbage'] as const) {
    it(`a provider failure mid-run (${fault}) fails the run with the reason; earlier rows and messages stay`, async () => {
      h = await turnsHarness({ script: [{ toolCalls: [{ name: 'bash', input: { command: 'echo earlier work' } }] }, { fault }, { fault }] });
      h.agent({ name: `flaky-${fault}` });
      const run = h.turns.startTurn({ agent: `flaky-${fault}`, prompt: 'go' });
      const ended = await h.ended(run.id);
      expect(ended.status).toBe('failed');
      expect(ended.error).toMatch(fault === 'close' ? /provider_unreachable/ : /provider_bad_response/);
      expect(ended.error).toMatch(/round 2/);
      expect(h.nexus.kernel.listRows(run.id).map((r) => [r.tool, r.state])).toEqual([['bash', 'succeeded']]);
      expect(h.turns.messages(run.id).map((m) => m.message.role)).toEqual(['user', 'assistant', 'tool']);
      const shown = await h.api('runsShow', { id: run.id });
      expect(shown.value).toMatchObject({ status: 'failed', rows: [{ state: 'succeeded' }] });
    });
  }

  it('a slow provider (no answer within the profile timeout) fails the run with provider_timeout', async () => {
    h = await turnsHarness({ script: [{ toolCalls: [{ name: 'bash', input: { command: 'echo before' } }] }, { fault: 'hang' }, { fault: 'hang' }] });
    await h.api('agentsSave', {
      name: 'sluggish',
      model: { provider: 'anthropic', baseURL: h.model.anthropicBaseURL, model: 'm', timeout_s: 0.3 },
      mode: 'bypass',
    });
    const ended = await h.ended(h.turns.startTurn({ agent: 'sluggish', prompt: 'go' }).id);
    expect(ended.status).toBe('failed');
    expect(ended.error).toMatch(/provider_timeout: The model at .* did not answer within 0.3 s/);
    expect(h.nexus.kernel.listRows(ended.id).map((r) => r.state)).toEqual(['succeeded']);
  });

  it('malformed tool arguments fail the run clearly', async () => {
    h = await turnsHarness({ script: [{ toolCalls: [{ name: 'bash', rawArguments: '{"command": "ls' }] }] });
    h.agent({ name: 'garbled' });
    const ended = await h.ended(h.turns.startTurn({ agent: 'garbled', prompt: 'go' }).id);
    expect(ended).toMatchObject({ status: 'failed' });
    expect(ended.error).toMatch(/malformed arguments for tool bash/);
  });

  const paths = [
    ['anthropic', true],
    ['anthropic', false],
    ['chat-completions', false],
  ] as const;
  for (const [provider, stream] of paths) {
    it(`a whole turn over ${provider} (stream=${stream}): tool call, result, final answer`, async () => {
      h = await turnsHarness({
        script: [{ text: 'Listing.', toolCalls: [{ name: 'bash', input: { command: 'echo from-the-tool' } }] }, { text: 'The tool said from-the-tool.' }],
      });
      h.agent({ name: 'wire', provider, stream });
      const ended = await h.ended(h.turns.startTurn({ agent: 'wire', prompt: 'use the tool' }).id);
      expect(ended).toMatchObject({ status: 'succeeded', final_answer: 'The tool said from-the-tool.' });
      expect(h.model.requests.map((r) => [r.api, r.stream])).toEqual([
        [provider, stream],
        [provider, stream],
      ]);
      expect(h.model.requests[1]!.toolResults[0]!.text.split('\n')[0]).toBe('from-the-tool');
    });
  }
});

describe('provider keys', () => {
  it('a key from the env var the profile names is sent, never stored in SQLite in clear, and redacted from the failure reason', async () => {
    const secret = 'sk-nexus-test-0123456789abcdefSECRET';
    h = await turnsHarness({ env: { NEXUS_AGENT_TEST_KEY: secret }, script: [{ fault: 'http_error', status: 401, text: `bad key ${secret}` }] });
    await h.api('agentsSave', {
      name: 'keyed',
      model: { provider: 'chat-completions', baseURL: h.model.baseURL, model: 'm', apiKeyEnv: 'NEXUS_AGENT_TEST_KEY' },
      mode: 'bypass',
    });
    const ended = await h.ended(h.turns.startTurn({ agent: 'keyed', prompt: 'hi' }).id);
    expect(h.model.requests[0]!.headers.authorization).toBe(`Bearer ${secret}`);
    expect(ended.status).toBe('failed');
    expect(ended.error).toMatch(/provider_http_error/);
    expect(ended.error).not.toContain(secret);
    await h.nexus.close();
    for (const f of readdirSync(h.dir).filter((f) => f.startsWith('nexus.db'))) {
      expect(readFileSync(`${h.dir}/${f}`).includes(Buffer.from(secret)), f).toBe(false);
    }
  });
});

describe('agent files', () => {
  it('an agent saved through the API keeps its model knobs (stream, timeout_s) and compaction budget', async () => {
    h = await turnsHarness({ script: [{ text: 'plain JSON reply' }] });
    const saved = await h.api('agentsSave', {
      name: 'knobs',
      model: { provider: 'chat-completions', baseURL: h.model.baseURL, model: 'scripted-1', stream: false, timeout_s: 30 },
      mode: 'bypass',
      context_budget_tokens: 5000,
    });
    expect(saved.ok).toBe(true);
    expect(saved.value.agent).toMatchObject({ model: { stream: false, timeout_s: 30 }, context_budget_tokens: 5000 });
    const started = await h.api('runsStart', { agent: 'knobs', prompt: 'hi' });
    expect(await h.ended(started.value.id)).toMatchObject({ status: 'succeeded', final_answer: 'plain JSON reply' });
    expect(h.model.requests[0]!.stream).toBe(false);
  });
});

describe('ask', () => {
  it('the model asks the person: a question card, answered with inboxAnswer, is the tool result', async () => {
    h = await turnsHarness({ script: [{ toolCalls: [{ name: 'ask', input: { question: 'Which branch?' } }] }, { text: 'Using main.' }] });
    h.agent({ name: 'asker' });
    const run = h.turns.startTurn({ agent: 'asker', prompt: 'deploy' });
    let items: Array<{ id: string; kind: string; target: string; message?: string }> = [];
    for (let i = 0; i < 1000 && !items.length; i++) {
      await new Promise((r) => setTimeout(r, 10));
      items = (await h.api('inboxList', {})).value;
    }
    expect(items).toMatchObject([{ kind: 'question', target: 'Which branch?', message: 'Which branch?' }]);
    expect((await h.api('inboxAnswer', { id: items[0]!.id, text: 'main, please' })).value.state).toBe('answered');
    expect(await h.ended(run.id)).toMatchObject({ status: 'succeeded', final_answer: 'Using main.' });
    expect(h.model.requests[1]!.toolResults[0]!.text.split('\n')[0]).toBe('main, please');
    expect((await h.api('inboxList', {})).value).toEqual([]);
    // The call is a model row; the await the kernel planted is a kernel row granted by its origin.
    expect(h.nexus.kernel.listRows(run.id).map((r) => [r.origin, r.tool, r.state, r.granted_by])).toEqual([
      ['model', 'ask', 'succeeded', 'mode'],
      ['kernel', 'ask_await', 'succeeded', 'origin'],
    ]);
  });

  it('a question left open by a restart is closed; the run goes on with the interrupted call', async () => {
    h = await turnsHarness({ script: [{ toolCalls: [{ name: 'ask', input: { question: 'Still there?' } }] }, { text: 'Carried on without an answer.' }] });
    h.agent({ name: 'asker2' });
    const run = h.turns.startTurn({ agent: 'asker2', prompt: 'go' });
    for (let i = 0; i < 1000 && !(await h.api('inboxList', {})).value.length; i++) await new Promise((r) => setTimeout(r, 10));
    await h.restart();
    const ended = await h.ended(run.id);
    expect(ended).toMatchObject({ status: 'succeeded', final_answer: 'Carried on without an answer.' });
    expect((await h.api('inboxList', {})).value).toEqual([]);
    expect(h.model.requests[1]!.toolResults[0]!.text).toMatch(/not re-run/);
  });
});
