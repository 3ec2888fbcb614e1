// One layering table: eslint/layers.js. docs/architecture.md's table is made from it (checked whole), and each
// folder README's "May import" line names exactly the layers that table lets the folder import.
import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { LAYER_NAMES, LAYERS, layerOf, layerTable } from '../../eslint/layers.js';

const root = join(import.meta.dirname, '..', '..');
const BEGIN = '<!-- layers: made from eslint/layers.js -->';
const END = '<!-- /layers -->';

function readmes(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...readmes(p));
    else if (name === 'README.md') out.push(p);
  }
  return out;
}

/** The layers a "May import" line names: each backticked path, read with or without its `electron/` prefix. */
function layersNamed(line: string): string[] {
  const byPath = new Map<string, string>();
  for (const [name, shown] of Object.entries(LAYER_NAMES)) {
    for (const m of shown.matchAll(/`([^`]+)`/g)) {
      byPath.set(m[1]!, name);
      byPath.set(m[1]!.replace(/^electron\//, ''), name);
    }
  }
  const named = new Set<string>();
  for (const m of line.matchAll(/`([^`]+)`/g)) {
    const layer = byPath.get(m[1]!);
    if (layer) named.add(layer);
  }
  return [...named].sort();
}

describe('the layering table has one source', () => {
  it('docs/architecture.md holds the table made from eslint/layers.js, whole', () => {
    const doc = readFileSync(join(root, 'docs/architecture.md'), 'utf8');
    const at = doc.indexOf(BEGIN);
    expect(at, `docs/architecture.md has the ${BEGIN} marker`).toBeGreaterThan(-1);
    expect(doc.slice(at + BEGIN.length, doc.indexOf(END, at)).trim()).toBe(layerTable());
  });

  it('every folder README names exactly the layers its folder may import', () => {
    const checked: string[] = [];
    const wrong: string[] = [];
    for (const file of readmes(root)) {
      const rel = relative(root, file).split(sep).join('/');
      const layer = layerOf(rel.replace(/README\.md$/, 'index.ts'));
      const line = readFileSync(file, 'utf8')
        .split('\n')
        .find((l) => l.startsWith('- **May import:**'));
      if (!layer || !line) continue;
      checked.push(rel);
      const own = LAYERS.find(([n]) => n === layer[0])!;
      const expected = [...own[2]].sort();
      // The list is the line's first sentence (what follows may say what the folder must never import).
      const list = line.slice('- **May import:**'.length).split(/[.;](?:\s|$)/)[0]!;
      const named = layersNamed(list).filter((n) => n !== own[0]);
      if (JSON.stringify(named) !== JSON.stringify(expected))
        wrong.push(`${rel}: names ${named.join(', ') || 'none'}; eslint/layers.js allows ${expected.join(', ') || 'none'}`);
    }
    expect(checked.length).toBeGreaterThan(5);
    expect(wrong).toEqual([]);
  });
});
