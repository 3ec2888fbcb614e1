// docs/rules-for-claude-code.md replayed as written (test/support/docs-replay.ts): the rule list is checked
// and each call, as Claude Code sends it, is evaluated by `nexus rules eval`; the agent file the page gives is
// added to a real kernel. Each NEXUS rule of the side-by-side table is one of the tried list's.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../support/serve.js';
import { bodyRows, fences, readDoc, sections } from '../support/docs-markdown.js';
import { replay, steps, type Replay } from '../support/docs-replay.js';

const page = readDoc('rules-for-claude-code.md');
let terminal: Replay;

beforeAll(() => {
  build();
  terminal = replay();
}, 60_000);
afterAll(() => terminal?.close());

describe('docs/rules-for-claude-code.md', () => {
  it("each rule of the table is in the page's rule list", () => {
    const list = JSON.parse(fences(sections(page, 2).find((s) => s.title === 'One list, tried')!.body)[0]!.body) as unknown[];
    const table = bodyRows(sections(page, 2).find((s) => s.title === 'The same rule in both')!.body);
    expect(table.length).toBe(8);
    for (const row of table) expect(list, row[1]).toContainEqual(JSON.parse(row[1]!.replace(/^`|`$/g, '')));
  });

  it('every command prints what the page shows', async () => {
    const all = steps(page);
    expect(all.filter((s) => s.kind === 'command').length).toBe(11);
    // The agent file names a real project folder; the rule list keeps the page's paths, as the evaluated calls do.
    mkdirSync(join(terminal.home, 'project'));
    await terminal.run(all, { file: (body) => (body.includes('"external"') ? body.replaceAll('/home/you', terminal.home) : body) });
  }, 120_000);
});
