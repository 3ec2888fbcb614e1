// Every answer the handlers give is what the contract declares: for a real NEXUS (turns + governance, a fresh
// SQLite data dir, scripted models over real HTTP), representative methods are called through dispatch and
// each value must parse with its method's output schema. The handlers build typed values instead of casting,
// so a field the contract does not know, or one of the wrong shape, fails here rather than in a caller.
import { afterEach, describe, expect, it } from 'vitest';
import { bash, delegate, queue, scenario, type Scenario } from '../../test/support/scenarios.js';
import { dispatch } from './dispatch.js';
import { methods, type MethodName } from '../../shared/api/index.js';

let s: Scenario | null = null;
afterEach(async () => {
  await s?.cleanup();
  s = null;
});

/** Call through dispatch; the value must parse with the method's output schema (every issue is reported). */
async function checked(name: MethodName, input: unknown = {}): Promise<unknown> {
  const r = await dispatch(s!.nexus.handlers, name, input, { door: 'internal' });
  if (!r.ok) throw new Error(`${name} failed: ${r.error.code} ${r.error.message}`);
  const parsed = methods[name].output.safeParse(r.value);
  expect(parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`), `${name}'s answer against its output schema`).toEqual([]);
  return r.value;
}

describe('answers parse with their output schemas', () => {
  it('agents, rules, runs, the inbox, settings, chains and tasks', async () => {
    s = await scenario({
      lead: queue([{ toolCalls: [delegate('mid')] }, { text: 'lead done' }]),
      mid: queue([{ toolCalls: [bash('echo hi')] }, { text: 'mid done' }]),
    });
    await s.open(['lead', 'mid'], true);

    // A profile with everything the schemas describe: rules, hooks, an MCP server with a secret.
    const saved = (await checked('agentsSave', {
      name: 'full',
      model: { provider: 'chat-completions', baseURL: 'http://127.0.0.1:9/v1', model: 'm' },
      mode: 'ask',
      approval_rules: [{ tool: 'bash', path: 'command', match: 'ls*', verdict: 'allow', reason: 'listing' }],
      lifecycle_hooks: { stop: [{ tool: 'bash', input: { command: 'true' }, timeout_s: 5 }] },
      mcpServers: { files: { command: 'node', args: ['server.js'], env: { TOKEN: 'secret-value' } } },
    })) as { agent: { mcpServers: Record<string, { env: unknown }> } };
    expect(saved.agent.mcpServers.files.env).toEqual({ TOKEN: { set: true } });
    const full = await checked('agentsGet', { name: 'full' });
    expect(JSON.stringify(full)).not.toContain('secret-value');
    expect(full).not.toHaveProperty('credentials_fenced');
    await checked('agentsList');
    await checked('status');

    await checked('rulesCheck', {
      rules: [
        { tool: 'bash', verdict: 'allow' },
        { tool: 'bash', verdict: 'maybe' },
      ],
    });
    await checked('rulesEval', {
      mode: 'rules',
      rules: [{ tool: 'bash', path: 'command', match: 'ls*', verdict: 'allow' }],
      tool: 'bash',
      input: { command: 'ls -la' },
    });

    // An autonomy card (with its effect) and an orchestration hold card.
    const own = (await checked('runsCreate', { mode: 'ask', rules: [{ tool: '*', verdict: 'ask', origin: 'author' }] })) as { id: string };
    await checked('runsAppend', { run_id: own.id, tool: 'bash', input: { command: 'echo parked' } });
    const run = s.start('lead');
    const hold = await s.until('the hold card', () => s!.nexus.kernel.inbox.pending().find((c) => c.kind === 'orchestration'));
    const cards = (await checked('inboxList')) as { kind: string; effect?: unknown }[];
    expect(cards.map((c) => c.kind).sort()).toEqual(['autonomy', 'orchestration']);
    expect(cards.find((c) => c.kind === 'autonomy')?.effect).toMatchObject({ tool: 'bash', mode: 'ask' });
    await checked('inboxList', { limit: 1 });
    await checked('inboxSummary');
    await checked('inboxContext', { id: hold.id });
    await checked('runsList');
    await checked('chainsList');
    await checked('tasksList');

    await checked('inboxApprove', { id: hold.id });
    await s.ended(run.id);
    const shown = (await checked('runsShow', { id: run.id })) as { rows: unknown[]; messages?: unknown[] };
    expect(shown.rows.length).toBeGreaterThan(0);
    expect(shown.messages?.length).toBeGreaterThan(0);
    await checked('runsShow', { id: own.id });
    const tasks = (await checked('tasksList')) as { id: string }[];
    expect(tasks).toHaveLength(1);
    await checked('tasksShow', { id: tasks[0].id });
    const chains = (await checked('chainsList')) as unknown[];
    expect(chains.length).toBeGreaterThan(0);
    await checked('settingsGet');
    await checked('settingsSet', { key: 'orchestration.maxDepth', value: '3' });
    await checked('entitlementsShow');
    await checked('runsStop', { id: own.id });
  }, 60_000);
});
