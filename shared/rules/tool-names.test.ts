// Wire names resolve before matching (DESIGN §2 "Tool names"): kernel aliases, then runner routes.
import { describe, expect, it } from 'vitest';
import { KERNEL_ALIASES, resolveInput, resolveToolName } from './index.js';

describe('resolveToolName', () => {
  it('a plain name is itself, served by the kernel', () => {
    expect(resolveToolName('bash')).toEqual({ name: 'bash', runner: null, alias: null, renames: null });
  });
  it('kernel aliases: Bash→bash, Read→read, Write→write, Edit→edit, LS→list, shell→bash', () => {
    const pairs: [string, string][] = [
      ['Bash', 'bash'],
      ['Read', 'read'],
      ['Write', 'write'],
      ['Edit', 'edit'],
      ['LS', 'list'],
      ['shell', 'bash'],
      ['exec_command', 'bash'],
      ['run_shell_command', 'bash'],
    ];
    for (const [wire, name] of pairs) expect(resolveToolName(wire)).toMatchObject({ name, runner: null, alias: wire });
    expect(Object.keys(KERNEL_ALIASES).sort()).toEqual(pairs.map((p) => p[0]).sort());
  });
  it('aliases are exact and case-sensitive', () => {
    expect(resolveToolName('BASH').name).toBe('BASH');
    expect(resolveToolName('toString').name).toBe('toString'); // never the prototype
  });
  it('a runner route NAME__<12 lowercase hex> is NAME served by that runner', () => {
    expect(resolveToolName('bash__0123456789ab')).toEqual({ name: 'bash', runner: '0123456789ab', alias: null, renames: null });
    expect(resolveToolName('a__b__ffffffffffff')).toMatchObject({ name: 'a__b', runner: 'ffffffffffff' });
  });
  it('not a route: uppercase hex, 11 or 13 digits, a single underscore, or no name before it', () => {
    for (const w of ['bash__0123456789AB', 'bash__0123456789a', 'bash_0123456789ab', '__0123456789ab', 'bash__0123456789abc'])
      expect(resolveToolName(w).runner).toBeNull();
    expect(resolveToolName('bash__0123456789abc').name).toBe('bash__0123456789abc');
  });
  it('aliases apply to the whole wire name only, not to a routed name', () => {
    expect(resolveToolName('Bash__0123456789ab')).toMatchObject({ name: 'Bash', runner: '0123456789ab' });
  });
});

describe('resolveInput', () => {
  it("renames the alias's input keys: file_path → path, cmd → command", () => {
    expect(resolveInput(resolveToolName('Write'), { file_path: 'a', content: 'c' })).toEqual({ path: 'a', content: 'c' });
    expect(resolveInput(resolveToolName('exec_command'), { cmd: 'ls' })).toEqual({ command: 'ls' });
  });
  it('when both keys are present, ours wins and the wire key is dropped (one value, read and run)', () => {
    expect(resolveInput(resolveToolName('Read'), { file_path: '/etc/passwd', path: 'ok' })).toEqual({ path: 'ok' });
  });
  it('leaves anything else untouched, never copied', () => {
    const input = { command: 'ls' };
    expect(resolveInput(resolveToolName('bash'), input)).toBe(input);
    expect(resolveInput(resolveToolName('Read'), input)).toBe(input);
    expect(resolveInput(resolveToolName('Read'), 'text')).toBe('text');
  });
  it('keeps a __proto__ key as data', () => {
    const input = JSON.parse('{"file_path": "a", "__proto__": {"x": 1}}');
    const out = resolveInput(resolveToolName('Read'), input) as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.hasOwn(out, '__proto__')).toBe(true);
  });
});
