// The window's Help on the real docs/ pages: every page it bundles parses with the dialog's Markdown reader
// (tables keep their width), and the page each view's Help link names exists under the title it shows.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseMarkdown } from '../../renderer/src/help/markdown.js';
import { SECTION_HELP, VIEW_HELP } from '../../renderer/src/help/help-pages.js';
import { ROOT } from '../support/docs-markdown.js';

const DOCS = join(ROOT, 'docs');

describe('the Help dialog on docs/', () => {
  it("every page the window bundles parses, and every table row has its header's width", () => {
    for (const f of readdirSync(DOCS).filter((x) => x.endsWith('.md') && x !== 'spec-coverage.md')) {
      const blocks = parseMarkdown(readFileSync(join(DOCS, f), 'utf8'));
      expect(blocks[0], f).toMatchObject({ kind: 'heading', level: 1 });
      for (const t of blocks) if (t.kind === 'table') for (const r of t.rows) expect(r.length, `${f}: ${JSON.stringify(r).slice(0, 80)}`).toBe(t.head.length);
    }
  });
  it('the Help links name pages that exist', () => {
    const pages = new Set(readdirSync(DOCS));
    for (const p of [...Object.values(VIEW_HELP), ...Object.values(SECTION_HELP)]) {
      expect(pages.has(p.file), p.file).toBe(true);
      expect(readFileSync(join(DOCS, p.file), 'utf8').split('\n')[0]).toBe(`# ${p.title}`);
    }
  });
});

describe("docs/README.md says which page each view's Help opens", () => {
  it('as renderer/src/help/help-pages.ts maps them', () => {
    const index = readFileSync(join(DOCS, 'README.md'), 'utf8').replace(/\s+/g, ' ');
    expect(index).toContain(`the inbox and runs open [modes and outcomes](${VIEW_HELP.inbox.file})`);
    expect(VIEW_HELP.runs.file).toBe(VIEW_HELP.inbox.file);
    expect(index).toContain(`agents [the agent file](${VIEW_HELP.agents.file})`);
    expect(index).toContain(`Settings ▸ Orchestration [the gate](${SECTION_HELP.orchestration.file})`);
    expect(index).toContain(`Settings ▸ Models [local models](${SECTION_HELP.models.file})`);
  });
});
