// Containment through the kernel's own file tools, adversarially: in a real `nexus serve` (built dist, fresh
// temp data dir) one run of a scripted agent keeps a sandboxed process flipping workspace names between a
// plain file (a folder) and a symlink to the control socket's credential (the data dir), while another run of
// the same agent, in the same workspace, calls `read` on those names hundreds of times. The file tools run in
// the kernel, outside the sandbox, so each read must open the name without following a link and check what it
// opened: the credential's bytes never appear in a row's result nor in any later request to the model.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startScriptedModel, type ScriptedModel, type ScriptedReply, type ScriptedRequest } from '../support/scripted-model.js';
import { build, serve, type Served } from '../support/serve.js';

const NODE = process.execPath;
const ROUNDS = 6;
// 480 rows: one page of `runs show`.
const READS_PER_ROUND = 80;

type Row = { id: string; tool: string; state: string; input: { path?: string }; result?: { content: Array<{ text: string }> } };
type Run = { id: string; status: string; rows: Row[] };

let s: Served;
let model: ScriptedModel;

// The agent's flipper: `f` is a file "public" or a symlink to the token; `d` a folder (holding a harmless
// nexus.sock.token) or a symlink to the data dir. It runs until the test leaves `stop` in the workspace.
const flipper = (dataDir: string) => `
const fs = require('fs');
const token = ${JSON.stringify(join(dataDir, 'nexus.sock.token'))};
fs.writeFileSync('f', 'public'); fs.mkdirSync('.d'); fs.writeFileSync('.d/nexus.sock.token', 'public');
fs.symlinkSync(${JSON.stringify(dataDir)}, '.l2');
for (let n = 0; !(n % 64 === 0 && fs.existsSync('stop')); n++) {
  try { fs.symlinkSync(token, '.l'); fs.renameSync('.l', 'f'); } catch {}
  try { fs.writeFileSync('.r', 'public'); fs.renameSync('.r', 'f'); } catch {}
  try { fs.renameSync('.d', 'd'); fs.renameSync('d', '.d'); } catch {}
  try { fs.renameSync('.l2', 'd'); fs.renameSync('d', '.l2'); } catch {}
  if (n === 500) fs.writeFileSync('flipping', '');
}`;

const firstUser = (req: ScriptedRequest) => req.messages.find((m) => m.role === 'user')?.text ?? '';
const rounds = (req: ScriptedRequest) => req.messages.filter((m) => m.role === 'assistant').length;

function attacker(req: ScriptedRequest): ScriptedReply {
  if (firstUser(req).includes('FLIP')) {
    if (req.toolResults.length) return { text: 'flipped' };
    const command = `cat > .flip.js <<'EOF'\n${flipper(s.dir)}\nEOF\n${NODE} .flip.js; echo flipper ended`;
    return { toolCalls: [{ name: 'bash', input: { command, timeout_s: 120 } }] };
  }
  if (rounds(req) >= ROUNDS) return { text: 'read enough' };
  return {
    toolCalls: Array.from({ length: READS_PER_ROUND }, (_, i) => ({ name: 'read', input: { path: i % 2 ? 'f' : 'd/nexus.sock.token' } })),
  };
}

beforeAll(async () => {
  build();
  model = await startScriptedModel({ script: attacker });
  s = await serve({ RACER_KEY: 'scripted' });
}, 120_000);
afterAll(async () => {
  await s?.stop();
  await model?.close();
});

const profile = () => {
  const file = join(s.dir, 'racer.json');
  writeFileSync(
    file,
    JSON.stringify({
      name: 'racer',
      model: { provider: 'chat-completions', baseURL: model.baseURL, model: 'scripted', apiKeyEnv: 'RACER_KEY' },
      mode: 'ask',
      approval_rules: [
        { tool: 'bash', verdict: 'allow' },
        { tool: 'read', verdict: 'allow' },
      ],
    }),
  );
  return file;
};
const finished = (id: string, within: number) =>
  s.until(
    `run ${id} to end`,
    async () => {
      const r = await s.json<Run>('runs', 'show', id);
      return r.status !== 'running' ? r : null;
    },
    within,
  );
const text = (row: Row) => row.result?.content.map((c) => c.text).join('\n') ?? '';

describe('an agent racing the file tools with symlinks gets nothing of the data dir', () => {
  it(`${ROUNDS * READS_PER_ROUND} reads of names flipping to the credential: never its bytes, in a result or in a later model request`, async () => {
    expect((await s.nexus('agents', 'add', profile())).code).toBe(0);
    const ws = join(`${s.dir}-workspaces`, 'racer');
    const flip = await s.json<{ id: string }>('run', 'racer', 'FLIP');
    await s.until('the flipper to run', async () => existsSync(join(ws, 'flipping')), 30_000);

    const reader = await s.json<{ id: string }>('run', 'racer', 'READ');
    const read = await finished(reader.id, 120_000);
    writeFileSync(join(ws, 'stop'), '');
    const flipped = await finished(flip.id, 60_000);
    expect(text(flipped.rows.find((r) => r.tool === 'bash')!)).toContain('flipper ended');

    const token = readFileSync(join(s.dir, 'nexus.sock.token'), 'utf8').trim();
    expect(token.length).toBeGreaterThan(16);
    const reads = read.rows.filter((r) => r.tool === 'read');
    expect(reads).toHaveLength(ROUNDS * READS_PER_ROUND);
    for (const r of reads) expect(text(r)).not.toContain(token);
    for (const req of model.requests) expect(req.transcript).not.toContain(token);
    expect(JSON.stringify(read)).not.toContain(token);
    // The race was on: some reads saw the plain file, others were refused, and none fell to anything else.
    const seen = reads.map(text);
    expect(seen.filter((t) => t === 'public').length).toBeGreaterThan(0);
    expect(seen.filter((t) => /symlink|outside the workspace|does not exist/.test(t)).length).toBeGreaterThan(0);
    expect(seen.filter((t) => !(t === 'public' || /refused|does not exist/.test(t)))).toEqual([]);
    expect(seen.join('\n')).not.toContain(ws);
  }, 240_000);
});
