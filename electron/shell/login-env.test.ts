// The login-shell environment loader, against a real bash with a fresh HOME.
import { describe, it, expect, afterEach } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loginShell, mergeLoginEnv, parseEnvBlock, readLoginShellEnv, shouldLoadLoginEnv } from './login-env.js';
import { world } from '../../test/support/world.js';

let w = world();
afterEach(async () => {
  await w.cleanup();
  w = world();
});

function home(rc: string): NodeJS.ProcessEnv {
  const dir = w.dir('login');
  // bash -il reads .bash_profile (login) and, through it here, .bashrc (interactive) as most setups do.
  writeFileSync(join(dir, '.bash_profile'), 'echo "welcome banner from the profile"; . "$HOME/.bashrc"\n');
  writeFileSync(join(dir, '.bashrc'), rc);
  return { HOME: dir, PATH: '/usr/bin:/bin', SHELL: '/bin/bash' };
}

describe('login shell environment', () => {
  it('reads what .bash_profile/.bashrc export, with noise around it and odd values intact', async () => {
    const env = home(
      [
        'echo "noise on stdout"; printf "half a marker __NEXUS_ENV_"',
        'export ANTHROPIC_API_KEY=sk-from-rc',
        'export PATH="$HOME/.nvm/bin:$PATH"',
        "export MULTI=$'line one\\nline two=with equals'",
      ].join('\n'),
    );
    const r = await readLoginShellEnv({ shell: '/bin/bash', env, timeoutMs: 15_000 });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.env.ANTHROPIC_API_KEY).toBe('sk-from-rc');
    expect(r.env.PATH!.startsWith(`${env.HOME}/.nvm/bin:`)).toBe(true);
    expect(r.env.MULTI).toBe('line one\nline two=with equals');
    // Merged over a Dock-style minimal environment: the shell's values win, bookkeeping stays ours.
    const target: NodeJS.ProcessEnv = { PATH: '/usr/bin:/bin', ELECTRON_RUN_AS_NODE: undefined };
    const changed = mergeLoginEnv(target, r.env);
    expect(target.PATH).toContain('.nvm/bin');
    expect(target.ANTHROPIC_API_KEY).toBe('sk-from-rc');
    expect(changed).toContain('ANTHROPIC_API_KEY');
    expect(changed).not.toContain('SHLVL');
    expect(target.NEXUS_LOADING_LOGIN_ENV).toBeUndefined();
  });

  it('a profile that hangs is cut off at the timeout and changes nothing', async () => {
    const env = home('sleep 30');
    const t0 = Date.now();
    const r = await readLoginShellEnv({ shell: '/bin/bash', env, timeoutMs: 700 });
    expect(r).toEqual({ ok: false, reason: expect.stringContaining('did not answer within 700 ms') });
    expect(Date.now() - t0).toBeLessThan(10_000);
  });

  it('a missing shell or one that prints no environment is reported, not thrown', async () => {
    expect(await readLoginShellEnv({ shell: '/no/such/shell', timeoutMs: 5000 })).toMatchObject({
      ok: false,
      reason: expect.stringContaining('could not start'),
    });
    const env = home('exit 3');
    expect(await readLoginShellEnv({ shell: '/bin/bash', env, timeoutMs: 15_000 })).toMatchObject({
      ok: false,
      reason: expect.stringContaining('printed no environment'),
    });
  });

  it('markers must both be there; names must be real variable names', () => {
    expect(parseEnvBlock('xMx', 'M')).toBeNull();
    expect(parseEnvBlock('junk MA=1\0=bad\0B C=2\0D=x=y\0M junk', 'M')).toEqual({ A: '1', D: 'x=y' });
  });

  it('runs only when started outside a terminal on macOS/Linux, and can be turned off', () => {
    expect(shouldLoadLoginEnv('darwin', {}, false)).toBe(true);
    expect(shouldLoadLoginEnv('linux', {}, false)).toBe(true);
    expect(shouldLoadLoginEnv('linux', {}, true)).toBe(false);
    expect(shouldLoadLoginEnv('win32', {}, false)).toBe(false);
    expect(shouldLoadLoginEnv('darwin', { NEXUS_SKIP_LOGIN_ENV: '1' }, false)).toBe(false);
    expect(loginShell('darwin', {})).toBe('/bin/zsh');
    expect(loginShell('linux', { SHELL: '/usr/bin/fish' })).toBe('/usr/bin/fish');
    expect(loginShell('linux', { SHELL: 'relative' })).toBe('/bin/bash');
  });
});
