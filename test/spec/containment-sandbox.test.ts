// Containment of the OS sandbox itself, adversarially (issue 20 items 1, 2, 7): a scripted model drives a real
// agent in a real `nexus serve` and tries to get out of bubblewrap; then the same attempts run as an
// unprivileged user (CI runs as root, so this file drops to nobody itself). Every attempt must fail:
//   - keep a capability or gain one (CapEff must be 0, no_new_privs set, seccomp on);
//   - `umount -l /proc` to see the host's /proc and the kernel's environment; nsenter into another namespace;
//   - connect() to a host unix socket in /var/tmp and in /run (AF_UNIX socket() is refused; /run is empty);
//   - ptrace, unshare, keyctl (the seccomp filters), open the unfiltered bridge's memory;
// and the network bridge must still carry a request to a host the profile allows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { chmodSync, chownSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttp, type Server as HttpServer } from 'node:http';
import { createServer as createNet, type AddressInfo, type Server as NetServer } from 'node:net';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { startScriptedModel, type ScriptedModel, type ScriptedReply, type ScriptedRequest } from '../support/scripted-model.js';
import { build, ROOT, serve, type Served } from '../support/serve.js';
import { world } from '../support/world.js';
import { attempts, NETWORK, type AttackTargets } from './support/sandbox-attempts.js';

const require = createRequire(import.meta.url);
const linux = process.platform === 'linux';
const root = process.getuid?.() === 0;
const setpriv = linux && spawnSync('setpriv', ['--version']).status === 0;

type Row = { id: string; tool: string; state: string; input: { command?: string }; result?: { content: Array<{ text: string }> } };

let s: Served;
let model: ScriptedModel;
let http: HttpServer;
let httpPort = 0;
const listeners: NetServer[] = [];
const unix: string[] = [];
let firstCalls: Array<{ name: string; input: unknown }> = [];
const attacker = (req: ScriptedRequest): ScriptedReply => (req.toolResults.length ? { text: 'done' } : { toolCalls: firstCalls });

/** What each attempt must have got: nothing, and the bridge its page. */
function expectContained(saw: Record<string, string>): void {
  expect(saw.status).toMatch(/CapEff:\s+0000000000000000/);
  expect(saw.status).toMatch(/NoNewPrivs:\s+1/);
  expect(saw.status).toMatch(/Seccomp:\s+2/);
  expect(saw.umountProc).not.toMatch(/umount=0/);
  expect(saw.umountProc).toMatch(/^0$/m);
  expect(saw.nsenter).not.toContain('NSENTERED');
  expect(saw.unix).not.toContain('CONNECTED');
  for (const p of unix) expect(saw.unix).toContain(`refused ${p} EPERM`);
  expect(saw.ptrace).toContain('ptrace -1 1');
  expect(saw.unshare).not.toMatch(/unshare=0/);
  expect(saw.unshare).not.toMatch(/unshare-m=0/);
  expect(saw.keyctl).toContain('keyctl -1 1');
  expect(saw.runDir).toMatch(/^0\n0$/m);
  expect(saw.bridge).toContain('BRIDGE-OK');
  expect(saw.bridgeMem).not.toContain('MEM-OPEN');
}

const listen = (path: string) =>
  new Promise<void>((resolve, reject) => {
    const srv = createNet((c) => c.on('error', () => undefined).end('HOST-UNIX-SOCKET\n'));
    srv.once('error', reject);
    srv.listen(path, () => {
      chmodSync(path, 0o777); // anyone may connect: only the sandbox stands in the way
      listeners.push(srv);
      unix.push(path);
      resolve();
    });
  });

beforeAll(async () => {
  if (!linux) return;
  build();
  http = createHttp((_req, res) => res.end('BRIDGE-OK'));
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  httpPort = (http.address() as AddressInfo).port;
  await listen(`/var/tmp/nexus-unix-${process.pid}.sock`);
  if (root) await listen(`/run/nexus-unix-${process.pid}.sock`);
  model = await startScriptedModel({ script: attacker });
  s = await serve({ OPENROUTER_API: 'sk-or-v1-SANDBOX-ATTACK-KEY', NEXUS_ATTACK_MARK: '1' });
}, 120_000);
afterAll(async () => {
  await s?.stop();
  await model?.close();
  await new Promise((r) => (http ? http.close(r) : r(null)));
  for (const l of listeners) l.close();
  // Sockets at fixed paths outside the temp folder (where they are is what the attempts test): removed by hand.
  for (const p of unix) rmSync(p, { force: true });
});

/** The kernel's pid on the host: the `nexus serve` on this data dir. */
const kernelPid = (dir: string): number => {
  for (const p of readdirSync('/proc').filter((x) => /^\d+$/.test(x))) {
    try {
      const cmd = readFileSync(`/proc/${p}/cmdline`, 'utf8').split('\0');
      if (cmd.includes('serve') && cmd.includes(dir)) return Number(p);
    } catch {
      /* gone */
    }
  }
  throw new Error('no kernel process found');
};

describe.skipIf(!linux)('an agent cannot leave the bubblewrap sandbox', () => {
  it('as the user NEXUS runs as (root in CI): no capability, no host /proc, no nsenter, no host unix socket, no ptrace/unshare/keyctl; the bridge works', async () => {
    const targets: AttackTargets = { unix, httpPort, kernelPid: kernelPid(s.dir), node: process.execPath };
    const commands = attempts(targets);
    const file = join(s.dir, 'sandbox-attacker.json');
    const profile = {
      name: 'sbx-attacker',
      model: { provider: 'chat-completions', baseURL: model.baseURL, model: 'scripted', apiKeyEnv: 'OPENROUTER_API' },
      mode: 'ask',
      approval_rules: [{ tool: 'bash', verdict: 'allow' }],
      network: { allow: NETWORK },
    };
    writeFileSync(file, JSON.stringify(profile));
    expect((await s.nexus('agents', 'add', file)).code).toBe(0);
    firstCalls = Object.values(commands).map((command) => ({ name: 'bash', input: { command, timeout_s: 30 } }));
    const run = await s.json<{ id: string }>('run', 'sbx-attacker', 'get out');
    const n = firstCalls.length;
    let last: unknown = null;
    const r = await s
      .until(
        'the attack rows to end',
        async () => {
          const x = await s.json<{ rows: Row[] }>('runs', 'show', run.id);
          last = x;
          const done = x.rows.filter((y) => y.tool === 'bash' && !['ready', 'running', 'needs_approval'].includes(y.state));
          return done.length >= n ? x : null;
        },
        120_000,
      )
      .catch((e: Error) => {
        throw new Error(`${e.message}: ${JSON.stringify(last).slice(0, 3000)}`);
      });
    const saw: Record<string, string> = {};
    for (const [name, command] of Object.entries(commands)) {
      const row = r.rows.find((x) => x.tool === 'bash' && x.input.command === command);
      saw[name] = row?.result?.content.map((c) => c.text).join('\n') ?? '';
    }
    expectContained(saw);
  }, 180_000);

  it.skipIf(!root || !setpriv)(
    `as an unprivileged user (nobody, via setpriv): the same attempts fail${!root ? ' [skipped: not root, the test above already ran unprivileged]' : !setpriv ? ' [skipped: setpriv is missing]' : ''}`,
    async () => {
      // A folder nobody can read: the attack script bundled with electron/sandbox, and apply-seccomp beside it
      // (the checkout may sit under /root, which nobody cannot read).
      const w = world();
      const dir = w.dir('sbx-nobody');
      try {
        chmodSync(dir, 0o755);
        const esbuild = require('esbuild') as typeof import('esbuild');
        await esbuild.build({
          entryPoints: [join(ROOT, 'test/spec/support/sandbox-attacks.ts')],
          outfile: join(dir, 'attacks.mjs'),
          bundle: true,
          platform: 'node',
          format: 'esm',
          target: 'node20',
          // The store's driver is imported on the way but never used by a bash row: a stub stands in for it.
          plugins: [
            {
              name: 'no-sqlite',
              setup(b) {
                b.onResolve({ filter: /^better-sqlite3$/ }, () => ({ path: 'better-sqlite3', namespace: 'stub' }));
                b.onLoad({ filter: /.*/, namespace: 'stub' }, () => ({ contents: 'export default {}' }));
              },
            },
          ],
          logLevel: 'silent',
        });
        const arch = process.arch === 'arm64' ? 'arm64' : 'x64';
        const pkg = dirname(require.resolve('@anthropic-ai/sandbox-runtime/package.json'));
        mkdirSync(join(dir, 'vendor', 'seccomp', arch), { recursive: true, mode: 0o755 });
        for (const d of ['vendor', 'vendor/seccomp', `vendor/seccomp/${arch}`]) chmodSync(join(dir, d), 0o755);
        const bin = join(dir, 'vendor', 'seccomp', arch, 'apply-seccomp');
        copyFileSync(join(pkg, 'vendor', 'seccomp', arch, 'apply-seccomp'), bin);
        chmodSync(bin, 0o755);
        chmodSync(join(dir, 'attacks.mjs'), 0o644);
        const ws = join(dir, 'ws');
        mkdirSync(ws);
        chownSync(ws, 65534, 65534);
        // Not execFileSync: this process serves the bridge's HTTP page meanwhile.
        const { stdout: out } = await promisify(execFile)(
          'setpriv',
          ['--reuid=nobody', '--regid=nogroup', '--clear-groups', process.execPath, join(dir, 'attacks.mjs'), JSON.stringify({ unix, httpPort }), ws],
          { env: { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: '/nonexistent', NEXUS_ATTACK_MARK: '1' }, cwd: dir, timeout: 150_000 },
        );
        expect(existsSync(ws)).toBe(true);
        expectContained(JSON.parse(out) as Record<string, string>);
      } finally {
        await w.cleanup();
      }
    },
    180_000,
  );
});
