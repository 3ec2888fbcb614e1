// MCP secrets at rest: the database (file, -wal, -shm) never holds an `env` value or a header; lists and
// shows say { "set": true }; an edit-and-save that echoes the marker keeps the value; the runner's child
// process still receives the real value; rows saved in clear by older builds are moved out at start.
import { afterEach, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { turnsHarness, type TurnsHarness } from '../../test/support/turns.js';
import { world } from '../../test/support/world.js';
import { createSecretStore } from '../store/secrets.js';
import { joinSecrets } from './agent-secrets.js';

const FIXTURE = join(import.meta.dirname, '..', '..', 'test', 'support', 'mcp-env-server.mjs');
const ENV_SECRET = 'env-secret-7f3a9c1d5e2b';
const HEADER_SECRET = 'Bearer hdr-secret-4b8e2d6a1c9f';

let h: TurnsHarness;
afterEach(async () => h?.cleanup());

const dbBytes = (dir: string) =>
  ['nexus.db', 'nexus.db-wal', 'nexus.db-shm']
    .map((f) => join(dir, f))
    .filter(existsSync)
    .map((f) => readFileSync(f).toString('latin1'))
    .join('');

const servers = (env: Record<string, unknown>, headers: Record<string, unknown> = { Authorization: HEADER_SECRET }) => ({
  tools: { command: process.execPath, args: [FIXTURE], env },
  remote: { url: 'http://127.0.0.1:9/mcp', headers },
});

describe('MCP secrets live outside the database', () => {
  it('saved through the API: not in any SQLite file, listed as { set: true }, in a 0600 secrets.json; the runner receives the value', async () => {
    h = await turnsHarness({ script: [{ toolCalls: [{ name: 'show_env', input: { name: 'NEXUS_TEST_SECRET' } }] }, { text: 'done' }] });
    const model = { provider: 'chat-completions', baseURL: h.model.baseURL, model: 'scripted-1' };
    const saved = await h.api('agentsSave', { name: 'sec', mode: 'bypass', model, mcpServers: servers({ NEXUS_TEST_SECRET: ENV_SECRET }) });
    expect(saved.ok, JSON.stringify(saved)).toBe(true);
    expect(saved.value.agent.mcpServers?.tools.env).toEqual({ NEXUS_TEST_SECRET: { set: true } });

    const list = await h.api('agentsList', {});
    const get = await h.api('agentsGet', { name: 'sec' });
    for (const out of [JSON.stringify(list), JSON.stringify(get), JSON.stringify(saved)]) {
      expect(out).not.toContain(ENV_SECRET);
      expect(out).not.toContain('hdr-secret');
    }
    expect(get.value.mcpServers?.remote.headers).toEqual({ Authorization: { set: true } });

    h.nexus.db.pragma('wal_checkpoint(PASSIVE)');
    expect(dbBytes(h.dir)).not.toContain(ENV_SECRET);
    expect(dbBytes(h.dir)).not.toContain('hdr-secret');
    const file = join(h.dir, 'secrets.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8')).toContain(ENV_SECRET);

    const run = h.turns.startTurn({ agent: 'sec', prompt: 'show it' });
    await h.ended(run.id);
    const row = h.nexus.kernel.listRows(run.id).find((r) => r.tool === 'show_env');
    expect(row?.result?.content[0]).toMatchObject({ text: `NEXUS_TEST_SECRET=${ENV_SECRET}` });
  }, 30_000);

  it('echoing { set: true } back keeps the value; a key left out is deleted; { set: true } with nothing stored is refused', async () => {
    h = await turnsHarness();
    const model = { provider: 'chat-completions', baseURL: h.model.baseURL, model: 'scripted-1' };
    expect((await h.api('agentsSave', { name: 'sec', mode: 'bypass', model, mcpServers: servers({ A: 'value-a', B: 'value-b' }) })).ok).toBe(true);
    // The window's edit-and-save: the listed profile (markers and all), one field changed, saved back.
    const profile: Record<string, unknown> & { mcpServers?: Record<string, { env?: Record<string, unknown> }> } = {
      ...(await h.api('agentsGet', { name: 'sec' })).value,
    };
    for (const field of ['status', 'created_at', 'updated_at', 'credentials_fenced', 'executor_revoked']) delete profile[field];
    delete profile.mcpServers?.tools.env?.B;
    const again = await h.api('agentsSave', { ...profile, instructions: 'edited' });
    expect(again.ok, JSON.stringify(again)).toBe(true);
    const joined = joinSecrets('sec', (await h.api('agentsGet', { name: 'sec' })).value.mcpServers, h.nexus.kernel.secrets);
    expect(joined.tools).toMatchObject({ env: { A: 'value-a' } });
    expect((joined.tools as { env: Record<string, string> }).env.B).toBeUndefined();
    expect(joined.remote).toMatchObject({ headers: { Authorization: HEADER_SECRET } });

    const bad = await h.api('agentsSave', { name: 'sec', mode: 'bypass', model, mcpServers: servers({ A: { set: true }, NEVER: { set: true } }) });
    expect(bad.ok).toBe(false);
    expect(bad.error?.message).toMatch(/mcpServers\.tools\.env\.NEVER .*no value is stored/);
    expect(createSecretStore(h.dir).get('sec').secrets.tools?.env).toEqual({ A: 'value-a' });
    expect((await h.api('agentsSave', { name: 'sec', mode: 'bypass', model, mcpServers: servers({ A: { set: false } }) })).ok).toBe(false);
  });

  it('removing the agent deletes its secrets', async () => {
    h = await turnsHarness();
    h.agent({ name: 'gone', mcpServers: servers({ K: 'v-to-delete' }) as never });
    expect(readFileSync(join(h.dir, 'secrets.json'), 'utf8')).toContain('v-to-delete');
    expect((await h.api('agentsRemove', { name: 'gone' })).ok).toBe(true);
    expect(readFileSync(join(h.dir, 'secrets.json'), 'utf8')).not.toContain('v-to-delete');
  });

  it('a row an older build saved in clear is moved out at start: the database no longer holds it anywhere', async () => {
    h = await turnsHarness();
    h.agent({ name: 'old', mcpServers: servers({ K: 'placeholder' }) as never });
    // What an older build wrote: the values in the profile JSON.
    const legacy = JSON.parse((h.nexus.db.prepare('SELECT profile_json FROM agents WHERE name = ?').get('old') as { profile_json: string }).profile_json);
    legacy.mcpServers.tools.env = { K: ENV_SECRET };
    legacy.mcpServers.remote.headers = { Authorization: HEADER_SECRET };
    await h.nexus.close();
    const raw = new Database(join(h.dir, 'nexus.db'));
    raw.prepare('UPDATE agents SET profile_json = ? WHERE name = ?').run(JSON.stringify(legacy), 'old');
    raw.close();
    expect(dbBytes(h.dir)).toContain(ENV_SECRET);

    await h.restart();
    expect(dbBytes(h.dir)).not.toContain(ENV_SECRET);
    expect(dbBytes(h.dir)).not.toContain('hdr-secret');
    expect(JSON.stringify((await h.api('agentsGet', { name: 'old' })).value)).not.toContain(ENV_SECRET);
    const { secrets } = createSecretStore(h.dir).get('old');
    expect(secrets).toEqual({ tools: { env: { K: ENV_SECRET } }, remote: { headers: { Authorization: HEADER_SECRET } } });
  });

  it('with a keychain cipher the file holds ciphertext only, and reads back; without it a value is named as unreadable', async () => {
    const w = world();
    const tmp = w.dir('secrets');
    const cipher = {
      available: () => true,
      encrypt: (s: string) => Buffer.from([...Buffer.from(s)].map((b) => b ^ 0x5a)),
      decrypt: (b: Buffer) => Buffer.from([...b].map((x) => x ^ 0x5a)).toString(),
    };
    try {
      const store = createSecretStore(tmp, cipher);
      store.set('a', { s: { env: { K: ENV_SECRET } } });
      expect(readFileSync(join(tmp, 'secrets.json'), 'utf8')).not.toContain(ENV_SECRET);
      expect(store.get('a').secrets).toEqual({ s: { env: { K: ENV_SECRET } } });
      expect(createSecretStore(tmp).get('a')).toEqual({ secrets: {}, unreadable: ['mcpServers.s.env.K'] });
    } finally {
      await w.cleanup();
    }
  });
});
