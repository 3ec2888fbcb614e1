// The sandbox's hardening: the base seccomp filter's bytes and semantics (an interpreter of the emitted program,
// then the real kernel through bwrap), the bwrap flags that leave no capability, the runtime folders hidden,
// and the refusal when no unprivileged sandbox can be built.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { bwrapArgs } from '../../sandbox/bwrap.js';
import { sandboxAvailability, setSandboxProbe } from '../../sandbox/detect.js';
import { AUDIT_ARCHES, baseSeccompFilter, DENIED, evaluateFilter, seccompArch } from '../../sandbox/seccomp.js';
import type { SandboxPolicy } from '../../sandbox/policy.js';
import { runCommand } from './bash.js';
import { world } from '../../../test/support/world.js';

const policy = (workspace: string): SandboxPolicy => ({ enabled: true, workspace, hidden: [], networkAllow: [], envPassthrough: [], envWithheld: [] });
const linuxBwrap = process.platform === 'linux' && sandboxAvailability().kind === 'bwrap';

describe('base seccomp filter', () => {
  it('is whole sock_filter records, checks the architecture first and kills a foreign one or the x32 ABI', () => {
    for (const arch of ['x64', 'arm64'] as const) {
      const f = baseSeccompFilter(arch);
      expect(f.length % 8).toBe(0);
      // ld [4] (seccomp_data.arch), then jeq AUDIT_ARCH
      expect([f.readUInt16LE(0), f.readUInt32LE(4)]).toEqual([0x20, 4]);
      expect([f.readUInt16LE(8), f.readUInt32LE(12)]).toEqual([0x15, AUDIT_ARCHES[arch]]);
      const other = arch === 'x64' ? AUDIT_ARCHES.arm64 : AUDIT_ARCHES.x64;
      expect(evaluateFilter(f, { arch: other, nr: 0 })).toBe('kill');
      expect(evaluateFilter(f, { arch: 0x40000003, nr: 0 })).toBe('kill'); // i386
    }
    expect(evaluateFilter(baseSeccompFilter('x64'), { arch: AUDIT_ARCHES.x64, nr: 0x40000000 | 101 })).toBe('kill');
  });
  it('answers EPERM to every listed call on each architecture and lets everything else through', () => {
    for (const arch of ['x64', 'arm64'] as const) {
      const f = baseSeccompFilter(arch);
      const denied = new Set<number>();
      for (const [name, nrs] of Object.entries(DENIED)) {
        const nr = nrs[arch];
        if (nr === null) continue;
        denied.add(nr);
        expect(evaluateFilter(f, { arch: AUDIT_ARCHES[arch], nr }), `${arch} ${name}`).toBe('eperm');
      }
      for (let nr = 0; nr < 500; nr++) if (!denied.has(nr)) expect(evaluateFilter(f, { arch: AUDIT_ARCHES[arch], nr })).toBe('allow');
    }
    expect(DENIED.ptrace!.x64).toBe(101);
    expect(DENIED.keyctl!.arm64).toBe(219);
  });
  it('has a filter for x64 and arm64 only', () => {
    expect(seccompArch('x64')).toBe('x64');
    expect(seccompArch('arm64')).toBe('arm64');
    expect(seccompArch('ia32')).toBeNull();
    expect(seccompArch('riscv64')).toBeNull();
  });
});

describe('bwrap flags', () => {
  it('own user namespace, no capability, the filter from the fd, root mapped to nobody, runtime folders covered', () => {
    const root = bwrapArgs(policy('/w'), { seccompFd: 3, root: true, runtime: ['/run'], runtimeLinks: [['/nix/store/x', '/run/current-system']] }).join(' ');
    for (const f of ['--unshare-user --uid 65534 --gid 65534', '--cap-drop ALL', '--seccomp 3', '--tmpfs /run', '--symlink /nix/store/x /run/current-system'])
      expect(root).toContain(f);
    expect(root.indexOf('--tmpfs /run')).toBeLessThan(root.indexOf('--bind /w /w'));
    const user = bwrapArgs(policy('/w'), { seccompFd: 3, root: false }).join(' ');
    expect(user).toContain('--unshare-user --cap-drop ALL');
    expect(user).not.toContain('--uid');
  });
});

describe.skipIf(!linuxBwrap)('the real sandbox (bubblewrap)', () => {
  it('holds no capability, sets no_new_privs, runs under seccomp, and refuses keyctl / ptrace / AF_UNIX sockets', async () => {
    const w = world();
    const ws = realpathSync(w.dir('seccomp'));
    try {
      const r = await runCommand(
        `grep -E '^(CapEff|NoNewPrivs|Seccomp):' /proc/self/status; ls /run | wc -l; ` +
          `${process.execPath} -e "require('net').connect('/nonexistent.sock').on('error',e=>console.log('unix',e.code))"`,
        { cwd: ws, timeout_ms: 20_000 },
      );
      expect(r.stdout).toMatch(/CapEff:\s+0000000000000000/);
      expect(r.stdout).toMatch(/NoNewPrivs:\s+1/);
      expect(r.stdout).toMatch(/Seccomp:\s+2/);
      expect(r.stdout).toMatch(/^0$/m); // /run is an empty tmpfs
      expect(r.stdout).toContain('unix EPERM'); // refused at socket(), before any path is looked up
    } finally {
      await w.cleanup();
    }
  });
  it('the probe refuses a bwrap that leaves the process privileged, with one sentence', async () => {
    const w = world();
    const dir = w.dir('fakebwrap');
    try {
      // A "bwrap" that ignores every flag and just runs its command: the process keeps what NEXUS holds.
      const fake = join(dir, 'bwrap');
      spawnSync('sh', ['-c', `printf '#!/bin/sh\\nwhile [ "$1" != -- ]; do shift; done; shift; exec "$@"\\n' > ${fake}; chmod +x ${fake}`]);
      const path = process.env.PATH;
      process.env.PATH = `${dir}:${path}`;
      try {
        setSandboxProbe(null);
        const a = sandboxAvailability();
        expect(a.kind).toBeNull();
        if (a.kind === null) expect(a.why).toMatch(/still holds privileges|cannot create a sandbox/);
      } finally {
        process.env.PATH = path;
        setSandboxProbe(null);
      }
    } finally {
      await w.cleanup();
    }
  });
});
