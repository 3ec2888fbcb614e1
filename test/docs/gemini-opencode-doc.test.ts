// docs/gemini-opencode.md's commands, run as written in a fresh folder: each succeeds, the dry run writes
// nothing, connect writes the two files the page names (Gemini's settings with the timeout in milliseconds,
// OpenCode's plugin) and disconnect removes NEXUS from both.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../support/serve.js';
import { fences, readDoc } from '../support/docs-markdown.js';
import { commandLines, shell, type Shell } from '../support/docs-shell.js';

const page = readDoc('gemini-opencode.md');
let sh: Shell;

beforeAll(() => {
  build();
  sh = shell();
}, 120_000);
afterAll(async () => {
  await sh?.close();
});

describe('docs/gemini-opencode.md: the commands work as written', () => {
  it('every line of every sh block succeeds; the files the page names are written, then removed', async () => {
    const lines = fences(page)
      .filter((f) => f.lang === 'sh')
      .flatMap((f) => commandLines(f.body));
    expect(lines.length).toBeGreaterThanOrEqual(6);
    const gemini = join(sh.dir, 'myproject', '.gemini', 'settings.json');
    const plugin = join(sh.dir, 'myproject', '.opencode', 'plugin', 'nexus-approval.js');
    for (const l of lines) {
      const r = await sh.line(l);
      expect(r.code, `${l}\n${r.err}`).toBe(0);
      if (l.includes('--dry-run')) expect(existsSync(gemini)).toBe(false);
      if (l === 'nexus connect gemini --project myproject') {
        const s = JSON.parse(readFileSync(gemini, 'utf8'));
        expect(s.hooks.BeforeTool[0].hooks[0].timeout).toBe(900_000);
        expect(page).toContain('`900000`');
      }
      if (l === 'nexus connect opencode --project myproject') expect(readFileSync(plugin, 'utf8')).toContain("'tool.execute.before'");
    }
    expect(JSON.parse(readFileSync(gemini, 'utf8'))).toEqual({});
    expect(existsSync(plugin)).toBe(false);
  }, 120_000);
});
