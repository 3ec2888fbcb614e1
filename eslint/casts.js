// Casts are a ratchet: `x as T` (but not `as const`) and `x!` each say "trust me", so every file may hold at
// most the number eslint/cast-allowance.json grants it, and a file below its allowance is told to lower it.
// The list only shrinks: a new file starts at zero, and `node eslint/casts.js --write` rewrites the list from
// the code as it is (run it after removing casts, never to make room for new ones).
import { readFileSync } from 'node:fs';
import { relative, resolve, sep } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
export const ALLOWANCE_FILE = resolve(import.meta.dirname, 'cast-allowance.json');

/** Tests, benches and their support set up what they check and may cast freely; the ratchet is for the product. */
export const EXEMPT = ['**/*.test.ts', '**/*.test.tsx', 'test/**', 'e2e/**', 'bench/**'];
const isExempt = (p) => /\.test\.tsx?$/.test(p) || /^(test|e2e|bench)\//.test(p);

let allowance = null;
const allowed = () => (allowance ??= JSON.parse(readFileSync(ALLOWANCE_FILE, 'utf8')));

/** Is this node a cast the ratchet counts? */
export const isCountedCast = (node) =>
  node.type === 'TSNonNullExpression' ||
  (node.type === 'TSAsExpression' && !(node.typeAnnotation.type === 'TSTypeReference' && node.typeAnnotation.typeName.name === 'const'));

/** @type {import('eslint').Rule.RuleModule} */
export default {
  meta: {
    type: 'problem',
    docs: { description: 'Each file holds at most the casts (as, !) eslint/cast-allowance.json grants it.' },
    schema: [],
    messages: {
      over: '{{file}} holds {{count}} casts (as / !), its allowance is {{max}}: type the value at its boundary (zod, a type guard) instead of casting.',
      under: '{{file}} now holds {{count}} casts, below its allowance of {{max}}: lower it in eslint/cast-allowance.json (node eslint/casts.js --write).',
    },
  },
  create(context) {
    const file = relative(ROOT, context.filename).split(sep).join('/');
    const casts = [];
    const count = (node) => {
      if (isCountedCast(node)) casts.push(node);
    };
    return {
      TSAsExpression: count,
      TSNonNullExpression: count,
      'Program:exit'(program) {
        const max = allowed()[file] ?? 0;
        if (casts.length > max) context.report({ node: casts[max], messageId: 'over', data: { file, count: casts.length, max } });
        else if (casts.length < max) context.report({ node: program, messageId: 'under', data: { file, count: casts.length, max } });
      },
    };
  },
};

/** How many counted casts a source file holds (the same parser ESLint runs, the same test as the rule). */
export async function countCasts(source, file) {
  const { parse } = await import('@typescript-eslint/typescript-estree');
  const { visitorKeys } = await import('@typescript-eslint/visitor-keys');
  let n = 0;
  const walk = (node) => {
    if (isCountedCast(node)) n++;
    for (const key of visitorKeys[node.type] ?? []) {
      const child = node[key];
      if (Array.isArray(child)) {
        for (const c of child) if (c) walk(c);
      } else if (child && typeof child.type === 'string') walk(child);
    }
  };
  walk(parse(source, { jsx: file.endsWith('.tsx') }));
  return n;
}

async function writeAllowance() {
  const { readdirSync, statSync, writeFileSync } = await import('node:fs');
  const { join } = await import('node:path');
  const SKIP = new Set(['node_modules', 'dist', 'release', 'test-results', 'playwright-report', '.git']);
  const files = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      if (SKIP.has(name)) continue;
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.tsx?$/.test(name) && !name.endsWith('.d.ts') && !isExempt(relative(ROOT, p).split(sep).join('/'))) files.push(p);
    }
  };
  walk(ROOT);
  const out = {};
  for (const p of files.sort()) {
    const n = await countCasts(readFileSync(p, 'utf8'), p);
    if (n > 0) out[relative(ROOT, p).split(sep).join('/')] = n;
  }
  writeFileSync(ALLOWANCE_FILE, `${JSON.stringify(out, null, 2)}\n`);
  const total = Object.values(out).reduce((a, b) => a + b, 0);
  console.log(`eslint/cast-allowance.json: ${total} casts in ${Object.keys(out).length} files`);
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.dirname, 'casts.js') && process.argv.includes('--write')) await writeAllowance();
