// The pages a newcomer looks for (issue 25): the glossary defines each word the product uses; the
// troubleshooting page quotes messages as the code writes them; every page is linked from docs/README.md.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, readDoc } from '../support/docs-markdown.js';

const code = (path: string) => readFileSync(join(ROOT, path), 'utf8');

describe('docs/glossary.md', () => {
  it.each(['row', 'park', 'card', 'hold', 'hop', 'executor', 'origin'])('defines %s', (word) => {
    expect(readDoc('glossary.md')).toMatch(new RegExp(`^- \\*\\*${word}\\*\\* — `, 'm'));
  });
});

describe('docs/troubleshooting.md', () => {
  const page = readDoc('troubleshooting.md');
  it('quotes the 503 sentence the browser host sends', () => {
    expect(code('electron/doors/web-static.ts')).toContain("'The window is not built yet: run `npm run build` (vite build writes dist/renderer).\\n'");
    expect(page).toContain('`The window is not built yet: run \\`npm run build\\` (vite build writes dist/renderer).`');
  });
  it('quotes the window’s "No key to NEXUS" sentence', () => {
    expect(code('renderer/src/components/TopBar.tsx')).toContain('No key to NEXUS: run <code>nexus open</code> in a terminal and open the address it prints.');
    expect(page).toContain('`No key to NEXUS: run nexus open in a terminal and open the address it prints.`');
  });
  it('quotes the unknown-key message as the API writes it', async () => {
    const { unknownKeyMessage } = await import('../../shared/did-you-mean.js');
    expect(page).toContain(`\`${unknownKeyMessage('aproval_rules', ['approval_rules', 'mode'])}\``);
  });
});

describe('the index', () => {
  it.each(['settings.md', 'troubleshooting.md', 'glossary.md', 'agent-file.schema.json', '../CHANGELOG.md'])('docs/README.md links %s', (p) => {
    expect(readDoc('README.md')).toContain(`](${p})`);
  });
});
