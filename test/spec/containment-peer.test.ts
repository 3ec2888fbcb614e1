// The control socket's peer check (issue 20.6, DESIGN §7.3; defense in depth behind the wall), with a real
// `nexus serve`, the real `nexus` command and real process trees:
//   - a client-like parent that recorded itself as a connected client through a real hook call, whose child (and
//     a shell below it) runs `nexus approve`: refused `peer_refused`, the card stays pending;
//   - an agent's bash with the sandbox turned off (it can read the credential) running `nexus approve`:
//     refused `peer_refused`; the same in the real sandbox: it never reaches the socket; the card stays pending;
//   - the person's own `nexus approve` (not below either) still approves, recorded person:cli.
// Linux only (the peer is named through /proc and ss). Run as root and as an unprivileged user.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessSync, constants, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { attacker, type AttackCalls, type Attacker } from '../support/attacker.js';
import { build, ROOT, serve, type Served } from '../support/serve.js';

const writable = (dir: string) => {
  try {
    accessSync(dir, constants.W_OK);
    return true;
  } catch {
    return false;
  }
};
const BIN = join(ROOT, 'bin', 'nexus.cjs');
const HOOK = join(ROOT, 'dist', 'hook', 'nexus-hook.mjs');
const NODE = process.execPath;
const linux = process.platform === 'linux';

type Row = { id: string; tool: string; state: string; approved_by?: string | null; result?: { content: Array<{ text: string }> } };
type Card = { id: string; tool: string; agent: string };

let s: Served;
let attack: Attacker;
let firstCalls: AttackCalls = [];

const profile = (name: string, extra: Record<string, unknown> = {}) => attack.profile(s.dir, name, extra);

/** A parked `write` card of agent `parker`: what every attempt below tries to approve. */
async function parkedCard(): Promise<Card> {
  firstCalls = [{ name: 'write', input: { path: `parked-${Date.now()}.txt`, content: 'x' } }];
  const before = new Set((await s.json<Card[]>('inbox')).map((c) => c.id));
  await s.json('run', 'parker', 'park a write');
  return s.until('the parked card', async () => (await s.json<Card[]>('inbox')).find((c) => c.agent === 'parker' && !before.has(c.id)));
}
const pending = async (id: string) => (await s.json<Card[]>('inbox')).some((c) => c.id === id);

/** The parent: records itself as a connected client through a real hook call, then its child (direct, or
 *  through `sh -c` as a client's shell tool runs it) runs `nexus approve`. Prints the child's result as JSON. */
function clientTree(
  card: string,
  viaShell: boolean,
  command: string[] = ['approve', card, '--json'],
): Promise<{ code: number; stdout: string; stderr: string; hook: string }> {
  const script = join(s.dir, '..', `client-${process.pid}.mjs`);
  const approve = [NODE, BIN, '--data-dir', s.dir, ...command];
  writeFileSync(
    script,
    `import { spawnSync } from 'node:child_process';
const event = { session_id: 'peer-s1', cwd: ${JSON.stringify(s.dir)}, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' } };
const hook = spawnSync(${JSON.stringify(NODE)}, [${JSON.stringify(HOOK)}, '--client', 'claude-code', '--data-dir', ${JSON.stringify(s.dir)}, '--timeout-s', '30'], { input: JSON.stringify(event), encoding: 'utf8' });
const argv = ${JSON.stringify(approve)};
const child = ${viaShell} ? spawnSync('/bin/sh', ['-c', argv.map((a) => "'" + a + "'").join(' ')], { encoding: 'utf8' }) : spawnSync(argv[0], argv.slice(1), { encoding: 'utf8' });
console.log(JSON.stringify({ code: child.status, stdout: child.stdout, stderr: child.stderr, hook: hook.stdout + hook.stderr }));
`,
  );
  return new Promise((resolve, reject) =>
    execFile(NODE, [script], { env: { PATH: process.env.PATH, HOME: process.env.HOME } }, (e, out) => (e ? reject(e) : resolve(JSON.parse(out)))),
  );
}

beforeAll(async () => {
  if (!linux) return;
  // Run unprivileged over a checkout root built (setpriv in CI), dist/ cannot be written: the built one is used.
  if (!(existsSync(HOOK) && !writable(join(ROOT, 'dist')))) build();
  attack = await attacker(() => firstCalls);
  s = await serve();
  expect((await s.nexus('agents', 'add', profile('parker', { approval_rules: [] }))).code).toBe(0);
  expect((await s.nexus('agents', 'add', profile('bare', { sandbox: false }))).code).toBe(0);
  expect((await s.nexus('agents', 'add', profile('boxed'))).code).toBe(0);
}, 120_000);
afterAll(async () => {
  await s?.stop();
  await attack?.close();
});

describe.runIf(linux)('the control socket refuses decisions from below a connected client or an agent', () => {
  for (const viaShell of [false, true]) {
    it(`a connected client's child${viaShell ? ' (through sh -c)' : ''} cannot approve: peer_refused, the card stays pending`, async () => {
      const card = await parkedCard();
      const r = await clientTree(card.id, viaShell);
      expect(r.code, r.stderr).toBe(1);
      const err = JSON.parse(r.stdout) as { ok: false; error: { code: string; message: string } };
      expect(err.error.code).toBe('peer_refused');
      expect(err.error.message).toMatch(/^This connection comes from a process started by a connected client \(claude-code, pid \d+\)/);
      expect(await pending(card.id)).toBe(true);
      // The person's own command, beside the client and not below it, still decides.
      const mine = await s.nexus('approve', card.id);
      expect(mine.code, mine.err).toBe(0);
      expect(await pending(card.id)).toBe(false);
    }, 60_000);
  }

  it("a connected client's child may still read (status): a read decides nothing, so its peer is not named", async () => {
    const card = await parkedCard();
    const r = await clientTree(card.id, true, ['status', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ pending: expect.any(Number) });
    const refused = await clientTree(card.id, true, ['stop-all', '--json']);
    expect(JSON.parse(refused.stdout)).toMatchObject({ ok: false, error: { code: 'peer_refused' } });
    expect((await s.nexus('deny', card.id)).code).toBe(0);
  }, 60_000);

  for (const sandboxed of [false, true]) {
    it(`an agent's bash ${sandboxed ? 'in the sandbox' : 'with the sandbox turned off'} cannot approve another card; it stays pending`, async () => {
      const card = await parkedCard();
      firstCalls = [{ name: 'bash', input: { command: `${NODE} ${BIN} --data-dir ${s.dir} approve ${card.id}; echo "EXIT=$?"`, timeout_s: 30 } }];
      const agent = sandboxed ? 'boxed' : 'bare';
      const run = await s.json<{ id: string }>('run', agent, 'approve it');
      const row = await s.until('the bash row to end', async () => {
        const rows = (await s.json<{ rows: Row[] }>('runs', 'show', run.id)).rows;
        return rows.find((x) => x.tool === 'bash' && ['succeeded', 'failed'].includes(x.state));
      });
      const text = row.result?.content.map((c) => c.text).join('\n') ?? '';
      expect(text).toContain('EXIT=1');
      if (sandboxed)
        expect(text).not.toContain('peer_refused'); // the wall: no credential, no socket in sight
      else expect(text).toMatch(/process an agent's command started \(process group \d+\), and an agent's commands cannot decide in NEXUS/);
      expect(await pending(card.id)).toBe(true);
      const rows = (
        await s.json<{ rows: Row[] }>(
          'runs',
          'show',
          (await s.json<Array<{ id: string; agent: string }>>('runs', 'list')).find((x) => x.agent === 'parker')!.id,
        )
      ).rows;
      expect(rows.find((x) => x.tool === 'write')?.state).toBe('needs_approval');
      expect((await s.nexus('deny', card.id)).code).toBe(0);
    }, 60_000);
  }
});
