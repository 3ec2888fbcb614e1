// Issue 25.1: an agent file, a setting and a method's input refuse a key they do not declare, naming its path
// and the nearest known name; an unknown tool in `tools` is refused with the known ones. Driven in process: a
// real kernel (createNexus) behind the real control socket, `main(argv, io)` as the user types it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createNexus, type Nexus } from '../app.js';
import { startSocketDoor, type SocketDoor } from '../doors/socket.js';
import { main } from './main.js';
import { world } from '../../test/support/world.js';
import { dispatch } from '../api/dispatch.js';

const w = world();
let dir: string;
let nexus: Nexus;
let door: SocketDoor;

beforeAll(async () => {
  dir = w.dir('strict');
  nexus = await createNexus({ dataDir: join(dir, 'data') });
  w.defer(() => nexus.close());
  door = await startSocketDoor(nexus);
  w.defer(() => door.close());
});
afterAll(() => w.cleanup());

async function nx(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main([...argv, '--data-dir', join(dir, 'data')], { out: (t) => (out += `${t}\n`), err: (t) => (err += `${t}\n`) });
  return { code, out, err };
}
const agentFile = (name: string, extra: Record<string, unknown>, model: Record<string, unknown> = {}) => {
  const f = join(dir, `${name}.json`);
  const profile = { name, model: { provider: 'chat-completions', baseURL: 'http://127.0.0.1:9/v1', model: 'm', ...model }, mode: 'bypass', ...extra };
  writeFileSync(f, JSON.stringify(profile));
  return f;
};

describe('agent files refuse keys they do not declare', () => {
  it('a misspelt approval_rules is refused with its path and the nearest name, and nothing is saved', async () => {
    const r = await nx('agents', 'add', agentFile('typo', { aproval_rules: [{ tool: 'bash', verdict: 'deny' }] }));
    expect(r.code).toBe(1);
    expect(r.err).toContain('aproval_rules');
    expect(r.err).toContain('did you mean approval_rules?');
    expect((await nx('agents', 'list', '--json')).out).not.toContain('"typo"');
  });

  it('a nested unknown key is named at its own path', async () => {
    const r = await nx('agents', 'add', agentFile('nested', {}, { baseUrl: 'http://127.0.0.1:9/v1' }), '--json');
    expect(r.code).toBe(1);
    expect(r.out).toContain('model.baseUrl: unknown key \\"baseUrl\\"; did you mean baseURL?');
  });

  it('an unknown tool is refused with the nearest and the known tools', async () => {
    const r = await nx('agents', 'add', agentFile('tools', { tools: ['bash', 'bsh'] }), '--json');
    expect(r.code).toBe(1);
    const body = JSON.parse(r.out) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('invalid_input');
    expect(body.error.message).toMatch(/^tools\.1: unknown tool "bsh"; did you mean bash\? \(known tools: .*\bread\b.*\)$/);
  });

  it('known tools and declared keys still save', async () => {
    const r = await nx('agents', 'add', agentFile('fine', { tools: ['bash', 'read', 'memory_recall'], approval_rules: [{ tool: 'bash', verdict: 'deny' }] }));
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
  });
});

describe('method inputs refuse keys they do not declare', () => {
  it('settingsSet with a misspelt key names the key and the nearest', async () => {
    const r = await dispatch(nexus.handlers, 'settingsSet', { key: 'orchestration.maxDepth', value: 3, vaule: 4 }, { door: 'socket' });
    expect(r).toMatchObject({ ok: false, error: { code: 'invalid_input', details: [{ path: 'vaule', message: 'unknown key "vaule"; did you mean value?' }] } });
  });

  it('an empty input refuses any key, saying nothing is expected', async () => {
    const r = await dispatch(nexus.handlers, 'status', { verbose: true }, { door: 'socket' });
    expect(r).toMatchObject({ ok: false, error: { details: [{ path: 'verbose', message: 'unknown key "verbose"; nothing is expected here' }] } });
  });
});

describe('under bypass, ask rules are named (25.4)', () => {
  it('agents add prints the warning for an ask rule of a bypass agent', async () => {
    const r = await nx('agents', 'add', agentFile('bypassask', { approval_rules: [{ tool: 'bash', verdict: 'ask' }] }));
    expect(r.code).toBe(0);
    expect(r.out + r.err).toContain('under bypass, ask rules grant; use deny, or mode ask.');
  });

  it('rules check --mode bypass names it; without --mode it does not', async () => {
    const f = join(dir, 'ask-rules.json');
    writeFileSync(f, JSON.stringify([{ tool: 'bash', verdict: 'ask' }]));
    expect((await nx('rules', 'check', f, '--mode', 'bypass')).out).toContain('rule 0: under bypass, ask rules grant; use deny, or mode ask.');
    expect((await nx('rules', 'check', f)).out).not.toContain('under bypass');
  });
});

describe('settings keys', () => {
  it('settings set with a misspelt key names the nearest (CLI and API)', async () => {
    const r = await nx('settings', 'set', 'orchestration.maxDept', '4');
    expect(r.code).toBe(2);
    expect(r.err).toContain('unknown setting "orchestration.maxDept"; did you mean orchestration.maxDepth?');
    const a = await dispatch(nexus.handlers, 'settingsSet', { key: 'approval.stopHookcap', value: 3 }, { door: 'socket' });
    expect(a).toMatchObject({
      ok: false,
      error: { details: [{ path: 'key', message: 'unknown setting "approval.stopHookcap"; did you mean approval.stopHookCap?' }] },
    });
  });
});
