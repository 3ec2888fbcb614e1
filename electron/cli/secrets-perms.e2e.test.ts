// A real `nexus serve` on a data dir the person made beforehand, world-readable: it starts private (0700,
// files 0600) and says so on stderr. An agent saved with MCP secrets through `nexus agents add` never shows
// them — not in `agents list/show`, not in agentsList over the raw socket — and no SQLite file holds them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build, serve, type Served } from '../../test/support/serve.js';
import { callKernel } from './client.js';

const ENV_SECRET = 'e2e-env-secret-91c4f0a2';
const HEADER_SECRET = 'Bearer e2e-hdr-secret-5d7e3b';
let s: Served;
beforeAll(async () => {
  build();
  s = await serve(
    {},
    {
      prepare: (dir) => {
        chmodSync(dir, 0o755);
        writeFileSync(join(dir, 'nexus.db'), '', { mode: 0o644 });
        chmodSync(join(dir, 'nexus.db'), 0o644);
      },
    },
  );
}, 120_000);
afterAll(async () => s?.stop());

describe('secrets and permissions through a real serve', () => {
  it('a data dir made 0755 with a 0644 database starts 0700/0600, with a warning on stderr', () => {
    expect(s.out()).toMatch(/warning: the data dir .* was 0755, now 0700/);
    expect(s.out()).toMatch(/warning: nexus\.db was 0644, now 0600/);
    expect(statSync(s.dir).mode & 0o777).toBe(0o700);
    for (const f of ['nexus.db', 'nexus.db-wal', 'nexus.db-shm', 'nexus.lock'])
      if (existsSync(join(s.dir, f))) expect(statSync(join(s.dir, f)).mode & 0o777, f).toBe(0o600);
  });

  it('MCP env values and headers: never listed through the CLI or the socket door (agentsList), never in an SQLite file', async () => {
    const file = join(s.dir, 'agent.json');
    writeFileSync(
      file,
      JSON.stringify({
        name: 'secretive',
        mode: 'ask',
        model: { provider: 'chat-completions', baseURL: 'http://127.0.0.1:9/v1', model: 'm' },
        mcpServers: {
          tools: { command: 'node', args: ['server.js'], env: { API_TOKEN: ENV_SECRET } },
          remote: { url: 'http://127.0.0.1:9/mcp', headers: { Authorization: HEADER_SECRET } },
        },
      }),
    );
    const add = await s.nexus('agents', 'add', file, '--json');
    expect(add.code, add.err).toBe(0);
    const outputs = [
      add.out,
      (await s.nexus('agents', 'list', '--json')).out,
      (await s.nexus('agents', 'show', 'secretive')).out,
      JSON.stringify(await callKernel(s.dir, 'agentsList', {})),
    ];
    expect(outputs[3]).toContain('"name":"secretive"');
    for (const o of outputs) {
      expect(o).not.toContain(ENV_SECRET);
      expect(o).not.toContain('e2e-hdr-secret');
    }
    const shown = JSON.parse((await s.nexus('agents', 'show', 'secretive')).out);
    expect(shown.mcpServers).toMatchObject({ tools: { env: { API_TOKEN: { set: true } } }, remote: { headers: { Authorization: { set: true } } } });
    for (const f of ['nexus.db', 'nexus.db-wal', 'nexus.db-shm']) {
      if (!existsSync(join(s.dir, f))) continue;
      const bytes = readFileSync(join(s.dir, f)).toString('latin1');
      expect(bytes, f).not.toContain(ENV_SECRET);
      expect(bytes, f).not.toContain('e2e-hdr-secret');
    }
    expect(statSync(join(s.dir, 'secrets.json')).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(s.dir, 'secrets.json'), 'utf8')).toContain(ENV_SECRET);
  }, 60_000);
});
