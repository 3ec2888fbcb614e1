// The sandbox's pure parts (bwrap line, Seatbelt profile, env allowlist, host matching, detection cache) and
// real bubblewrap runs of what an agent's command may and may not do.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, realpathSync, rmSync, symlinkSync, writeFileSync, existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { bwrapArgs } from '../../sandbox/bwrap.js';
import { seatbeltProfile } from '../../sandbox/seatbelt.js';
import { childEnv } from '../../sandbox/env.js';
import { hostAllowed, policyFor, type SandboxPolicy } from '../../sandbox/policy.js';
import { sandboxAvailability, setSandboxProbe, INSTALL_SENTENCE } from '../../sandbox/detect.js';
import { processStartTime } from '../../sandbox/processes.js';
import { runCommand } from './bash.js';
import { bashResult } from './bash-result.js';
import { world } from '../../../test/support/world.js';

const policy = (over: Partial<SandboxPolicy> = {}): SandboxPolicy => ({
  enabled: true,
  workspace: '/w',
  hidden: ['/d'],
  networkAllow: [],
  envPassthrough: [],
  envWithheld: [],
  ...over,
});

const O = { seccompFd: 3, root: false };

describe('bwrap command line', () => {
  it('read-only machine, private /tmp, hidden data dir, writable workspace, own pid/net namespaces, dies with the kernel', () => {
    const a = bwrapArgs(policy(), O).join(' ');
    expect(a).toContain('--ro-bind / /');
    expect(a).toContain('--tmpfs /tmp');
    expect(a).toContain('--tmpfs /d');
    expect(a).toContain('--bind /w /w');
    for (const f of ['--unshare-pid', '--unshare-net', '--die-with-parent', '--new-session', '--proc /proc']) expect(a).toContain(f);
    expect(a.endsWith('--chdir /w --')).toBe(true);
  });
  it('a workspace inside the data dir: the data dir is covered first, then the workspace bound back', () => {
    const a = bwrapArgs(policy({ workspace: '/d/workspaces/x' }), O);
    expect(a.indexOf('/d')).toBeLessThan(a.indexOf('--bind'));
    expect(a.slice(a.indexOf('--bind'), a.indexOf('--bind') + 3)).toEqual(['--bind', '/d/workspaces/x', '/d/workspaces/x']);
  });
  it('a data dir inside the workspace is covered after the workspace bind (stays hidden)', () => {
    const a = bwrapArgs(policy({ workspace: '/w', hidden: ['/w/data'] }), O);
    expect(a.lastIndexOf('/w/data')).toBeGreaterThan(a.indexOf('--bind'));
  });
  it('the proxy socket folder is bound in when hosts are allowed', () => {
    expect(bwrapArgs(policy(), { ...O, proxyDir: '/tmp/nexus-net-1' }).join(' ')).toContain('--bind /tmp/nexus-net-1 /tmp/.nexus-net');
    // NEXUS's own files stay readable when it runs from a checkout under /tmp (after the private /tmp, before
    // the data dir is covered); a folder elsewhere is already readable and is not bound again.
    const a = bwrapArgs(policy({ hidden: ['/tmp/ci/data'] }), { ...O, readOnly: ['/tmp/ci', '/opt/nexus'] }).join(' ');
    expect(a).toContain('--tmpfs /tmp --ro-bind /tmp/ci /tmp/ci');
    expect(a.indexOf('--ro-bind /tmp/ci /tmp/ci')).toBeLessThan(a.indexOf('--tmpfs /tmp/ci/data'));
    expect(a).not.toContain('/opt/nexus');
  });
});

describe("bwrap command line as root: the host's root-only files covered", () => {
  const rootOnly = { files: ['/etc/shadow', '/d/secret', '/w/own.key'], dirs: ['/etc/ssl/private', '/opt', '/srv'] };
  it("a file by /dev/null, a folder by tmpfs; never what NEXUS runs from, the workspace's own, or inside a covered folder", () => {
    const a = bwrapArgs(policy({ workspace: '/srv/ws' }), { ...O, root: true, rootOnly, readOnly: ['/opt/nexus'] });
    const line = a.join(' ');
    expect(line).toContain('--ro-bind /dev/null /etc/shadow');
    expect(line).toContain('--tmpfs /etc/ssl/private');
    // /opt holds NEXUS itself: left readable, or no command could start.
    expect(line).not.toContain('--tmpfs /opt');
    // /d is the hidden data dir: its files are gone with it, not bound over one by one.
    expect(line).not.toContain('/dev/null /d/secret');
    // A root-only folder holding the workspace is covered first, then the workspace bound back.
    expect(a.indexOf('/srv')).toBeLessThan(a.indexOf('--bind'));
    expect(a.slice(a.indexOf('--bind'), a.indexOf('--bind') + 3)).toEqual(['--bind', '/srv/ws', '/srv/ws']);
    expect(bwrapArgs(policy(), { ...O, root: true, rootOnly }).join(' ')).not.toContain('/w/own.key');
  });
});

describe('Seatbelt profile (macOS)', () => {
  it('denies by default, reads allowed except the hidden folders, writes only workspace and tmp, no network', () => {
    const p = seatbeltProfile(policy(), { tmpDir: '/private/tmp/x' });
    expect(p).toMatch(/^\(version 1\)\n\(deny default\)/);
    expect(p).toContain('(deny file-read* file-write* (subpath "/d"))');
    expect(p).toContain('(allow file-write* (subpath "/w") (subpath "/private/tmp/x")');
    expect(p).not.toContain('network-outbound');
  });
  it('a workspace inside the data dir is allowed after the deny (later rules win)', () => {
    const p = seatbeltProfile(policy({ workspace: '/d/ws' }), { tmpDir: '/t' });
    expect(p.indexOf('(deny file-read* file-write* (subpath "/d"))')).toBeLessThan(p.indexOf('(allow file-read* (subpath "/d/ws"))'));
    expect(p.lastIndexOf('(deny')).toBeLessThan(p.indexOf('(allow file-read* (subpath "/d/ws"))'));
  });
  it('only the proxy port on loopback when hosts are allowed; paths are escaped', () => {
    const p = seatbeltProfile(policy({ workspace: '/w "x"\\' }), { tmpDir: '/t', proxyPort: 4567 });
    expect(p).toContain('(allow network-outbound (remote ip "localhost:4567"))');
    expect(p).toContain('(subpath "/w \\"x\\"\\\\")');
  });
});

describe('child environment: an allowlist', () => {
  const kernelEnv = {
    PATH: '/bin',
    HOME: '/h',
    LANG: 'C',
    OPENROUTER_API: 'sk-or',
    NEXUS_DATA_DIR: '/d',
    NEXUS_ACCOUNT_TOKEN: 't',
    GITHUB_TOKEN: 'g',
    RANDOM_THING: 'r',
  };
  it('only the fixed names reach a child: no provider key (whatever its name), no NEXUS_*', () => {
    expect(childEnv(kernelEnv)).toEqual({ PATH: '/bin', HOME: '/h', LANG: 'C' });
  });
  it('names the profile passes through are added; NEXUS_* and the provider key never are', () => {
    const e = childEnv(kernelEnv, { passthrough: ['GITHUB_TOKEN', 'NEXUS_DATA_DIR', 'OPENROUTER_API'], withheld: ['OPENROUTER_API'] });
    expect(e).toEqual({ PATH: '/bin', HOME: '/h', LANG: 'C', GITHUB_TOKEN: 'g' });
  });
  it('a profile without apiKeyEnv withholds nothing extra; policyFor carries the fields', () => {
    const p = policyFor(
      {
        sandbox: false,
        network: { allow: ['api.github.com'] },
        env_passthrough: ['X'],
        model: { provider: 'anthropic', baseURL: 'http://x', model: 'm', apiKeyEnv: 'K' },
      },
      { workspace: '/w', dataDir: '/d' },
    );
    expect(p).toEqual({ enabled: false, workspace: '/w', hidden: ['/d'], networkAllow: ['api.github.com'], envPassthrough: ['X'], envWithheld: ['K'] });
    expect(policyFor(null, { workspace: '/w', dataDir: '/d' }).enabled).toBe(true);
  });
});

describe('host allow list', () => {
  it('exact names and *.domain subdomains, case-insensitive; nothing else', () => {
    expect(hostAllowed('api.github.com', ['api.github.com'])).toBe(true);
    expect(hostAllowed('API.GitHub.com.', ['api.github.com'])).toBe(true);
    expect(hostAllowed('evil-api.github.com', ['api.github.com'])).toBe(false);
    expect(hostAllowed('x.github.com', ['*.github.com'])).toBe(true);
    expect(hostAllowed('github.com', ['*.github.com'])).toBe(false);
    expect(hostAllowed('xgithub.com', ['*.github.com'])).toBe(false);
    expect(hostAllowed('127.0.0.1', [])).toBe(false);
  });
  it('a name that smuggles another (NUL, percent-encoding, underscore, space) matches nothing; IDNA and addresses compare normalised', () => {
    for (const h of ['127.0.0.1\0.allowed.invalid', '127.0.0.1%00.allowed.invalid', '127_0_0_1.allowed.invalid', '127.0.0.1 .allowed.invalid']) {
      expect(hostAllowed(h, ['*.allowed.invalid'])).toBe(false);
    }
    expect(hostAllowed('Bücher.example', ['*.example'])).toBe(true);
    expect(hostAllowed('bücher.example', ['xn--bcher-kva.example'])).toBe(true);
    expect(hostAllowed('::ffff:127.0.0.1', ['127.0.0.1'])).toBe(true);
    expect(hostAllowed('127.0.0.1', ['*.0.0.1'])).toBe(false);
  });
});

describe('detection', () => {
  afterEach(() => setSandboxProbe(null));
  it('is probed once and cached; an injected probe decides', () => {
    let calls = 0;
    setSandboxProbe(() => (calls++, { kind: null, why: INSTALL_SENTENCE.linux! }));
    expect(sandboxAvailability()).toEqual({ kind: null, why: INSTALL_SENTENCE.linux });
    sandboxAvailability();
    expect(calls).toBe(1);
  });
  it('no sandbox: a sandboxed command is refused with one sentence saying how to install one, and never runs', async () => {
    setSandboxProbe(() => ({ kind: null, why: INSTALL_SENTENCE.linux! }));
    const w = world();
    const ws = w.dir('nosbx');
    try {
      const o = await runCommand('touch ran', { cwd: ws, timeout_ms: 5000 });
      const r = bashResult(o, 5);
      expect(r.isError).toBe(true);
      expect(r.content[0]!.text).toMatch(/^No OS sandbox is available.*apt-get install bubblewrap.*"sandbox": false/);
      expect(r.content[0]!.text.split('. ').length).toBe(1);
      expect(existsSync(join(ws, 'ran'))).toBe(false);
      // The sandbox turned off for the agent: it runs, and says it ran unsandboxed.
      const off = bashResult(await runCommand('touch ran', { cwd: ws, timeout_ms: 5000, policy: policy({ enabled: false, workspace: ws }) }), 5);
      expect(existsSync(join(ws, 'ran'))).toBe(true);
      expect(off.content[0]!.text).toContain('[unsandboxed');
    } finally {
      await w.cleanup();
    }
  });
  it('reads a process start time (field 22) and null for a pid that is gone', () => {
    expect(processStartTime(process.pid)).toMatch(/^\d+$/);
    expect(processStartTime(2 ** 22 + 12345)).toBeNull();
  });
});

describe('bubblewrap, for real', () => {
  const w = world();
  let root: string;
  let data: string;
  let ws: string;
  let outside: string;
  let server: Server;
  let port = 0;
  beforeAll(async () => {
    root = realpathSync(w.dir('sbx'));
    data = join(root, 'data');
    ws = join(root, 'ws');
    outside = join(root, 'outside');
    for (const d of [data, ws, outside]) mkdirSync(d);
    writeFileSync(join(data, 'nexus.db'), 'THE DATABASE');
    server = createServer((_q, r) => r.end('REACHED')).listen(0, '127.0.0.1');
    w.defer(() => void server.close());
    await new Promise((r) => server.once('listening', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => w.cleanup());
  const sh = (command: string, over: Partial<SandboxPolicy> = {}) =>
    runCommand(command, { cwd: ws, timeout_ms: 15_000, policy: policy({ workspace: ws, hidden: [data], ...over }) });

  it('the data dir is empty inside; the workspace is writable; the rest is read-only; /tmp is private', async () => {
    // /var/tmp: writable on the host (even more so as root), read-only inside. The probe's parent is the thing
    // tested, so it is named and removed here, not made by the world.
    const probe = `/var/tmp/nexus-sbx-probe-${process.pid}`;
    try {
      const o = await sh(`ls -A ${data}; cat ${data}/nexus.db; echo ok > in.txt; echo x > ${outside}/w.txt; echo t > /tmp/t && cat /tmp/t; echo x > ${probe}`);
      expect(o.stdout).not.toContain('THE DATABASE');
      expect(readFileSync(join(ws, 'in.txt'), 'utf8')).toBe('ok\n');
      expect(existsSync(join(outside, 'w.txt'))).toBe(false);
      expect(existsSync(probe)).toBe(false);
      expect(o.stderr).toMatch(/Read-only file system/);
      expect(o.stdout).toContain('t\n');
      expect(bashResult(o, 15).content[0]!.text).toContain('[sandbox:');
      // Outside /tmp the machine stays readable (toolchains, sources).
      expect((await sh('cat /etc/hostname >/dev/null && echo readable')).stdout).toBe('readable\n');
    } finally {
      rmSync(probe, { force: true });
    }
  });
  it.runIf(process.getuid?.() === 0)("as root: the host's root-only files cannot be read (mapped to nobody, the process still owns them outside)", async () => {
    expect(readFileSync('/etc/shadow', 'utf8')).toMatch(/^root:/); // the host's, as the kernel reads it
    // A covered file is /dev/null on a nodev mount: it cannot be opened at all. A covered folder is empty.
    const o = await sh('cat /etc/shadow; ls -A /etc/ssl/private 2>/dev/null | wc -l; id -u');
    expect(o.stderr).toMatch(/\/etc\/shadow: Permission denied/);
    expect(o.stdout).toBe('0\n65534\n');
  });
  it('a symlink in the workspace that leads out cannot be written through', async () => {
    symlinkSync(outside, join(ws, 'out'));
    const o = await sh('echo x > out/via-link.txt');
    expect(o.exit_code).not.toBe(0);
    expect(existsSync(join(outside, 'via-link.txt'))).toBe(false);
  });
  it("the kernel's processes are invisible (own pid namespace)", async () => {
    const o = await sh('ls /proc | grep -E "^[0-9]+$" | wc -l; cat /proc/$PPID/environ | tr "\\0" "\\n" | grep -c NEXUS_ || true');
    expect(Number(o.stdout.split('\n')[0])).toBeLessThan(10);
    expect(o.stdout).not.toContain(String(process.pid));
  });
  it('no network: even loopback on the host is unreachable', async () => {
    const o = await sh(`curl -sS -m 3 http://127.0.0.1:${port}/ || echo FAILED`);
    expect(o.stdout).not.toContain('REACHED');
    expect(o.stdout).toContain('FAILED');
  });
  it('allowed hosts through the proxy only; a refused host is named in the result', async () => {
    // Loopback only because a rule names the address; `localhost` leads there too, but no rule names it.
    const o = await sh(`curl -sS -m 5 http://127.0.0.1:${port}/; echo; curl -sS -m 5 -f http://localhost:${port}/ || echo REFUSED`, {
      networkAllow: ['127.0.0.1'],
    });
    expect(o.stdout).toContain('REACHED');
    expect(o.stdout).toContain('REFUSED');
    expect(o.refused_hosts).toEqual(['localhost']);
    expect(bashResult(o, 15).content[0]!.text).toMatch(/refused network access to localhost \(it reaches only well-formed host names/);
  });
  it('an allowed name leading to loopback is refused unless a rule names the address', async () => {
    const o = await sh(`curl -sS -m 5 -f http://localhost:${port}/ || echo REFUSED`, { networkAllow: ['localhost'] });
    expect(o.stdout).not.toContain('REACHED');
    expect(o.stdout).toContain('REFUSED');
    expect(o.refused_hosts).toEqual(['localhost']);
  });
  it('only allowlisted variables reach the command', async () => {
    process.env.OPENROUTER_API = 'sk-or-secret';
    process.env.NEXUS_DATA_DIR = data;
    try {
      const o = await sh('env');
      expect(o.stdout).not.toContain('sk-or-secret');
      expect(o.stdout).not.toMatch(/^NEXUS_/m);
      expect(o.stdout).toMatch(/^PATH=/m);
      expect(o.stdout).toMatch(/^TMPDIR=\/tmp$/m);
    } finally {
      delete process.env.OPENROUTER_API;
      delete process.env.NEXUS_DATA_DIR;
    }
  });
});
