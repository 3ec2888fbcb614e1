// docs/cli.md against the CLI's own source: the commands are whatever `nexus --help` lists (main.ts's table,
// so commands added later are held to the page too), each command's flags are the ones its usage names, the
// environment table is what the code reads, and every reference a help text prints exists.
import { readFileSync, readdirSync, statSync, existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMON_OPTIONS } from '../../electron/cli/common.js';
import { ENVIRONMENT, REFERENCE, SUMMARIES } from '../../electron/cli/help.js';
import { bodyRows, readDoc, ROOT, sections, unquote } from '../support/docs-markdown.js';
import { cliCommands, flagsIn, run } from '../support/docs-cli-source.js';

const page = readDoc('cli.md');
const PENDING = '*(being added)*';
const GLOBAL = new Set(Object.keys(COMMON_OPTIONS).map((k) => `--${k}`));
const commandSections = sections(page, 2).filter((s) => s.title.startsWith('nexus '));
const docName = (title: string) => title.split(' ')[1];
const isPending = (body: string) => body.trimStart().startsWith(PENDING);
const section = (title: string) => sections(page, 2).find((s) => s.title === title)!.body;
const own = (flags: Set<string>) => [...flags].filter((f) => !GLOBAL.has(f)).sort();

/** Non-test source files of the project (what "read somewhere in the code" means). */
function sources(dir = ROOT, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (['node_modules', 'dist', '.git', 'test-results', 'docs', 'test', 'e2e', 'bench'].includes(name)) continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) sources(p, out);
    else if (/\.(ts|tsx|mjs|js)$/.test(name) && !/\.test\.tsx?$/.test(name)) out.push(p);
  }
  return out;
}

describe('docs/cli.md: one section per command, derived from the CLI source', async () => {
  const commands = await cliCommands();
  const names = Object.keys(commands);

  it('every command of the CLI has a "## nexus NAME" section that is not marked as being added', () => {
    const documented = commandSections.filter((s) => !isPending(s.body)).map((s) => docName(s.title));
    expect(names.filter((n) => !documented.includes(n))).toEqual([]);
  });
  it('every section names a real command, unless marked as being added (and then it must not exist yet)', () => {
    for (const s of commandSections) {
      const n = docName(s.title);
      if (isPending(s.body)) expect(names, `${n} exists now: drop the "being added" mark and document its flags`).not.toContain(n);
      else expect(names, s.title).toContain(n);
    }
  });
  it("each command's own flags are exactly the ones its section names (globals aside)", () => {
    for (const s of commandSections.filter((x) => !isPending(x.body))) {
      const n = docName(s.title);
      expect(own(flagsIn(s.body)), `nexus ${n}`).toEqual(own(flagsIn(commands[n])));
    }
  });
  it('the global options are the ones every command parses', () => {
    const rows = bodyRows(section('Global options and conventions')).map((r) => r[0].split(', ').map((c) => unquote(c).split(' ')[0]));
    expect(rows.map((r) => r[0]).sort()).toEqual([...GLOBAL].sort());
  });
  it('every help text ends with the exit codes and reference pages that exist', () => {
    for (const [n, help] of Object.entries(commands)) {
      expect(help, n).toMatch(/exit codes: 0 ok, 1 failure .*, 2 usage error/);
      expect(help, n).toContain(`docs/cli.md#nexus-${n}`);
      expect(commandSections.map((s) => docName(s.title))).toContain(n);
    }
    for (const pages of Object.values(REFERENCE)) for (const p of pages) expect(existsSync(join(ROOT, p)), p).toBe(true);
  });
  it('nexus --help: every command with its one-line summary, the data dir, the environment, the exit codes', async () => {
    const help = (await run('--help')).out;
    for (const n of names) expect(SUMMARIES[n], `a one-line summary for ${n} in electron/cli/help.ts`).toBeTruthy();
    expect(help).toMatch(/data dir: --data-dir DIR, else \$NEXUS_DATA_DIR, else \S+/);
    for (const [v] of ENVIRONMENT) expect(help).toContain(v);
    expect(help).toMatch(/exit codes: 0 ok, 1 failure/);
  });
  it("nexus --version is package.json's version", async () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(await run('--version')).toEqual({ code: 0, out: `nexus ${pkg.version}\n`, err: '' });
  });
});

describe('docs/cli.md: the environment', () => {
  const rows = bodyRows(section('Environment'));
  const vars = rows.map((r) => unquote(r[0])).filter((v) => /^[A-Z_]+$/.test(v));
  const pending = rows.filter((r) => r[2].includes(PENDING)).map((r) => unquote(r[0]));
  const code = sources().map((f) => ({ f: relative(ROOT, f), text: readFileSync(f, 'utf8') }));

  it('every variable documented is read somewhere in the code (unless being added, and then it is not yet)', () => {
    for (const v of vars) {
      const readers = code.filter((c) => c.text.includes(v)).map((c) => c.f);
      if (pending.includes(v)) expect(readers, `${v} is read now: drop its "being added" mark`).toEqual([]);
      else expect(readers, v).not.toEqual([]);
    }
  });
  it('every NEXUS_* variable the code reads is documented, and nexus --help lists the same ones', () => {
    const found = new Set<string>();
    for (const c of code) for (const m of c.text.matchAll(/(?:env\.|['"`])(NEXUS_[A-Z0-9_]+)\b/g)) found.add(m[1]);
    const names = [...found].filter((n) => ![...found].some((o) => o !== n && o.startsWith(n)) && n !== 'NEXUS_VERSION');
    expect(names.filter((n) => !vars.includes(n))).toEqual([]);
    expect(ENVIRONMENT.map(([n]) => n).sort()).toEqual(vars.filter((v) => v.startsWith('NEXUS_') && !pending.includes(v)).sort());
  });
});

describe("each command's help gives the limits the schemas enforce", async () => {
  const commands = await cliCommands();
  const { kernelMethods } = await import('../../shared/api/kernel.js');
  const { orchestrationMethods } = await import('../../shared/api/orchestration.js');
  const { validateSetting } = await import('../../shared/orchestration/setting-values.js');
  const accepts = (schema: { safeParse(v: unknown): { success: boolean } }, v: unknown) => schema.safeParse(v).success;

  it('runs list --limit', () => {
    const [lo, hi] = /--limit N: (\d+)–(\d+)/.exec(commands.runs)!.slice(1).map(Number);
    const input = kernelMethods.runsList.input;
    expect([accepts(input, { limit: lo }), accepts(input, { limit: hi }), accepts(input, { limit: lo - 1 }), accepts(input, { limit: hi + 1 })]).toEqual([
      true,
      true,
      false,
      false,
    ]);
  });
  it('runs show, tasks and chains --limit', () => {
    const range = (help: string, re: RegExp) => re.exec(help)!.slice(1).map(Number);
    const cases = [
      [range(commands.runs, /show: (\d+)–(\d+) rows/), kernelMethods.runsShow.input, (n: number) => ({ id: 'r', rows_limit: n })],
      [range(commands.tasks, /--limit N: (\d+)–(\d+)/), orchestrationMethods.tasksList.input, (n: number) => ({ limit: n })],
      [range(commands.chains, /--limit N: (\d+)–(\d+)/), orchestrationMethods.chainsList.input, (n: number) => ({ limit: n })],
    ] as const;
    for (const [[lo, hi], input, of] of cases)
      expect([accepts(input, of(lo)), accepts(input, of(hi)), accepts(input, of(lo - 1)), accepts(input, of(hi + 1))]).toEqual([true, true, false, false]);
  });
  it('deny --reason and entitlements import', () => {
    const reason = Number(/at most (\d+) characters/.exec(commands.deny)![1]);
    expect(accepts(kernelMethods.inboxDeny.input, { id: 'x', reason: 'r'.repeat(reason) })).toBe(true);
    expect(accepts(kernelMethods.inboxDeny.input, { id: 'x', reason: 'r'.repeat(reason + 1) })).toBe(false);
    const token = Number(/at most (\d+) characters/.exec(commands.entitlements)![1]);
    expect(accepts(orchestrationMethods.entitlementsImport.input, { token: 't'.repeat(token) })).toBe(true);
    expect(accepts(orchestrationMethods.entitlementsImport.input, { token: 't'.repeat(token + 1) })).toBe(false);
  });
  it('settings: each numeric limit', () => {
    const limits = [...commands.settings.matchAll(/(maxDepth|maxAgents|stopHookCap|maxRefusals) (\d+)–(\d+)/g)];
    expect(limits).toHaveLength(4);
    const key = {
      maxDepth: 'orchestration.maxDepth',
      maxAgents: 'orchestration.maxAgents',
      stopHookCap: 'approval.stopHookCap',
      maxRefusals: 'delegation.maxRefusals',
    } as const;
    for (const [, k, lo, hi] of limits) {
      const name = key[k as keyof typeof key];
      expect(
        [
          validateSetting(name, Number(lo)).ok,
          validateSetting(name, Number(hi)).ok,
          validateSetting(name, Number(lo) - 1).ok,
          validateSetting(name, Number(hi) + 1).ok,
        ],
        name,
      ).toEqual([true, true, false, false]);
    }
  });
  it('serve --port', async () => {
    expect(commands.serve).toContain('--port N: 0–65535');
    expect((await run('serve', '--port', '65536', '--data-dir', '/nonexistent')).code).toBe(2);
  });
});
