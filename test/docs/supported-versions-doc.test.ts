// docs/supported-versions.md against package.json: each client's supported version is the exact pin the
// external tests run (a pin bumped without the page, or the page without the pin, fails here), the Node range
// is `engines`, and every test file the page names exists.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bodyRows, readDoc, ROOT } from '../support/docs-markdown.js';

const page = readDoc('supported-versions.md');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  engines: { node: string };
  devDependencies: Record<string, string>;
  dependencies: Record<string, string>;
};
const pins = { ...pkg.dependencies, ...pkg.devDependencies };

describe('docs/supported-versions.md', () => {
  const rows = bodyRows(page).filter((r) => r.length === 4);
  it.each(rows.filter((r) => !r[1]!.startsWith('not')).map((r) => [r[0]!, r[1]!]))('%s: the version is the pinned one', (client, version) => {
    const name = /`([^`]+)`/.exec(client)![1]!;
    const want = /`([^`]+)`/.exec(version)![1]!;
    expect(pins[name]?.replace(/^\^/, ''), name).toBe(want);
  });
  it('names only test files that exist', () => {
    const named = rows.flatMap((r) => [...r[3]!.matchAll(/`([^`]+\.test\.ts)`/g)].map((m) => m[1]!));
    expect(named.length).toBeGreaterThan(4);
    for (const f of named) expect(existsSync(join(ROOT, f)), f).toBe(true);
  });
  it("gives the Node range of package.json's engines", () => {
    expect(page).toContain(`Node.js \`${pkg.engines.node}\``);
  });
  it('the OpenCode plugin is pinned with OpenCode', () => {
    expect(page).toContain(`\`@opencode-ai/plugin\` \`${pins['@opencode-ai/plugin']}\``);
  });
});
