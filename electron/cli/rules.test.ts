// `nexus rules` end to end: the real CLI built as scripts/build.mjs builds it (scripts/build-cli.mjs) into a fresh
// temp folder laid out like the package (bin/nexus.cjs + dist/cli/), spawned as a child process.
// Built privately so a concurrent `npm run build` of the shared tree can never race this test.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildCli } from '../../scripts/build-cli.mjs';
import { world } from '../../test/support/world.js';

const root = join(import.meta.dirname, '..', '..');
const w = world();
let dir = '';
let bin = '';

beforeAll(async () => {
  dir = w.dir('rules-cli');
  mkdirSync(join(dir, 'bin'));
  copyFileSync(join(root, 'bin', 'nexus.cjs'), join(dir, 'bin', 'nexus.cjs'));
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
  await buildCli({ root, outDir: join(dir, 'dist', 'cli'), sourcemap: false, logLevel: 'silent' });
  bin = join(dir, 'bin', 'nexus.cjs');
});
afterAll(() => w.cleanup());

function nexus(args: string[], stdin?: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { cwd: dir, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin ?? '');
  });
}
const file = (name: string, content: unknown) => {
  const p = join(dir, name);
  writeFileSync(p, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  return p;
};

const SEED = [
  {
    tool: 'bash|start_process',
    path: 'command',
    match: '*git push*--force*',
    verdict: 'deny',
    reason: 'force push rewrites history others may hold; a person can run it',
  },
  { tool: 'write|edit', path: 'path', match: '*.env', verdict: 'deny' },
  { tool: 'memory_*|ask|delegate_task|code|skill', verdict: 'allow' },
  { tool: 'bash|start_process', path: 'command', match: 'ls*', verdict: 'allow' },
  { tool: 'bash', verdict: 'ask', origin: 'author' },
];

describe('nexus rules check FILE [--json]', () => {
  it('exit 0 and {"valid": true, "errors": []} for a valid list (warnings welcome)', async () => {
    const r = await nexus(['rules', 'check', file('seed.json', SEED), '--json']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ valid: true, errors: [] });
    expect(out.warnings).toEqual([expect.objectContaining({ index: 3, kind: 'compound_command' })]);
  });

  it('exit 1 and every error with its index for an invalid list', async () => {
    const r = await nexus([
      'rules',
      'check',
      file('bad.json', [
        { tool: 'bash', verdict: 'allow' },
        { tool: 'bash||x', verdict: 'permit', extra: 1 },
      ]),
      '--json',
    ]);
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout);
    expect(out.valid).toBe(false);
    expect(out.errors.map((e: { index: number }) => e.index)).toEqual([1, 1, 1]);
    expect(out.errors.find((e: { key: string }) => e.key === 'verdict').message).toBe('rule 1: verdict must be allow, ask or deny (got "permit")');
  });

  it('exit 1 with index null for a list that is not an array, or over the 64 KiB envelope', async () => {
    const r = await nexus(['rules', 'check', file('obj.json', { tool: 'bash' }), '--json']);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).errors).toEqual([{ index: null, message: expect.stringContaining('JSON array') }]);
    const big = await nexus(['rules', 'check', file('big.json', [{ tool: 'bash', verdict: 'deny', reason: 'x'.repeat(70_000) }]), '--json']);
    expect(big.code).toBe(1);
    expect(JSON.parse(big.stdout).errors[0]).toMatchObject({ index: null, message: expect.stringContaining('65536') });
  });

  it('exit 1 with a located message for a file that is not JSON', async () => {
    const r = await nexus(['rules', 'check', file('broken.json', '[\n  {"tool": "bash",}\n]'), '--json']);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toEqual({
      valid: false,
      errors: [{ index: null, message: expect.stringMatching(/is not JSON \(line 2 column \d+\)/) }],
      warnings: [],
    });
  });

  it('exit 1 for a file that cannot be read', async () => {
    const r = await nexus(['rules', 'check', join(dir, 'missing.json'), '--json']);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).errors[0].message).toMatch(/cannot read .*missing\.json: no such file/);
  });

  it('exit 2 for usage: no FILE, two FILEs, an unknown flag, no subcommand', async () => {
    for (const args of [['rules', 'check'], ['rules', 'check', 'a', 'b'], ['rules', 'check', 'a.json', '--jsn'], ['rules'], ['rules', 'lint']]) {
      const r = await nexus(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toContain('usage: nexus rules');
    }
  });

  it('FILE - reads standard input', async () => {
    const r = await nexus(['rules', 'check', '-', '--json'], JSON.stringify([{ tool: 'read', verdict: 'allow' }]));
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ valid: true, errors: [], warnings: [] });
  });

  it('human output: one line per error, warnings shown too', async () => {
    const bad = await nexus(['rules', 'check', file('bad2.json', [{ verdict: 'deny' }, { tool: 'x', verdict: 'ask', origin: 'human' }])]);
    expect(bad.code).toBe(1);
    const lines = bad.stdout.trim().split('\n');
    expect(lines.filter((l) => l.includes('error: '))).toEqual([
      '  error: rule 0: tool is required: the |-separated tool names the rule addresses, e.g. "bash" or "write|edit"',
      '  error: rule 1: origin must be model, author or kernel (got "human")',
    ]);
    const ok = await nexus(['rules', 'check', file('seed2.json', SEED)]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/valid \(5 rules, 1 warning\)/);
    expect(ok.stdout).toContain('warning (compound_command): rule 3');
  });
});

describe('nexus rules eval', () => {
  const seed = () => file('eval-seed.json', SEED);
  const evalJson = async (args: string[]) => {
    const r = await nexus(['rules', 'eval', ...args, '--json']);
    expect(r.code, r.stderr).toBe(0);
    return JSON.parse(r.stdout);
  };

  it('prints {"outcome","granted_by","error","tool","matched"} and exits 0 for a grant', async () => {
    expect(await evalJson(['--mode', 'rules', '--rules', seed(), '--tool', 'Bash', '--input', '{"command":"ls -la"}'])).toEqual({
      outcome: 'granted',
      granted_by: 'rule',
      error: null,
      tool: 'bash',
      runner: null,
      matched: [3],
    });
  });

  it("exits 0 for a refusal: the deny's reason rides", async () => {
    expect(await evalJson(['--mode', 'bypass', '--rules', seed(), '--tool', 'bash', '--input', '{"command":"git push --force"}'])).toEqual({
      outcome: 'failed',
      granted_by: null,
      error: { code: 'approval_denied', detail: 'force push rewrites history others may hold; a person can run it' },
      tool: 'bash',
      runner: null,
      matched: [0],
    });
  });

  it('rules mode, unmatched: "no approval rule allows NAME" with the resolved name', async () => {
    expect(await evalJson(['--mode', 'rules', '--rules', seed(), '--tool', 'LS'])).toMatchObject({
      outcome: 'failed',
      error: { detail: 'no approval rule allows list' },
      tool: 'list',
    });
  });

  it('ask mode parks what no allow names; no --rules is the empty list', async () => {
    expect(await evalJson(['--mode', 'ask', '--tool', 'write', '--input', '{"path":"a.txt"}'])).toEqual({
      outcome: 'parked',
      granted_by: null,
      error: null,
      tool: 'write',
      runner: null,
      matched: [],
    });
  });

  it('--origin author: granted by origin, parked by an ask rule naming author', async () => {
    expect(await evalJson(['--mode', 'rules', '--tool', 'write', '--origin', 'author'])).toMatchObject({ outcome: 'granted', granted_by: 'origin' });
    expect(await evalJson(['--mode', 'rules', '--rules', seed(), '--tool', 'bash', '--origin', 'author'])).toMatchObject({ outcome: 'parked', matched: [4] });
  });

  it('a runner-qualified callable is checked as its served name', async () => {
    expect(await evalJson(['--mode', 'rules', '--rules', seed(), '--tool', 'bash__0123456789ab', '--input', '{"command":"ls"}'])).toMatchObject({
      outcome: 'granted',
      tool: 'bash',
      runner: '0123456789ab',
      matched: [3],
    });
  });

  it('exit 1 when the rules are invalid', async () => {
    const r = await nexus(['rules', 'eval', '--mode', 'ask', '--rules', file('eval-bad.json', [{ tool: 'bash' }]), '--tool', 'bash', '--json']);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ valid: false, errors: [{ index: 0, key: 'verdict' }] });
    expect((await nexus(['rules', 'eval', '--mode', 'ask', '--rules', join(dir, 'nope.json'), '--tool', 'bash'])).code).toBe(1);
  });

  it('exit 2 for usage: no --mode, a bad --mode, no --tool, --input not JSON, a bad --origin, an unknown flag', async () => {
    const cases = [
      ['--tool', 'bash'],
      ['--mode', 'yolo', '--tool', 'bash'],
      ['--mode', 'ask'],
      ['--mode', 'ask', '--tool', 'bash', '--input', '{nope'],
      ['--mode', 'ask', '--tool', 'bash', '--origin', 'human'],
      ['--mode', 'ask', '--tool', 'bash', '--verbose'],
      ['--mode', 'ask', '--tool', 'bash', 'extra'],
    ];
    for (const args of cases) {
      const r = await nexus(['rules', 'eval', ...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toContain('usage:');
    }
  });

  it('--rules - reads standard input', async () => {
    const r = await nexus(
      ['rules', 'eval', '--mode', 'rules', '--rules', '-', '--tool', 'read', '--json'],
      JSON.stringify([{ tool: 'read', verdict: 'allow' }]),
    );
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ outcome: 'granted', granted_by: 'rule', matched: [0] });
  });

  it('human output names the outcome, the tool and the matched rules', async () => {
    const r = await nexus(['rules', 'eval', '--mode', 'rules', '--rules', seed(), '--tool', 'bash', '--input', '{"command":"git push -f --force"}']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('failed approval_denied: force push rewrites history');
    expect(r.stdout).toContain('matched rule 0');
  });
});
