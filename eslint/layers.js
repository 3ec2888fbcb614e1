// The layering of DESIGN §1.1 as an ESLint rule: each file belongs to a layer, and an import (type imports
// included) may only reach its own layer or one listed below it. Relative specifiers are resolved against the
// importing file, so `../../kernel/x.js` is judged by where it lands, not by how it is spelled.
import { dirname, relative, resolve, sep } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');

/** Layers, lowest first: [name, test on the repo-relative path, the layers it may import]. */
export const LAYERS = [
  ['shared', (p) => p.startsWith('shared/'), []],
  // Where NEXUS's data lives (node:fs/os/path, nothing of the project) is known before any store opens: the CLI
  // and the shells resolve it too, so this one file sits below the store and every node-side layer may import it.
  ['data-dir', (p) => p === 'electron/store/data-dir.ts', []],
  // The one logger (stderr lines, capturable in tests): every node-side layer may write to it.
  ['log', (p) => p.startsWith('electron/log.'), ['shared']],
  ['store', (p) => p.startsWith('electron/store/'), ['shared', 'log', 'data-dir']],
  // Writing a client's hook configuration (Claude Code's settings, Codex's config) touches only those files:
  // the CLI does it without a running NEXUS, so it sits below everything that does.
  ['connect', (p) => p.startsWith('electron/external/connect/') && !p.endsWith('.test.ts'), []],
  ['providers', (p) => p.startsWith('electron/providers/'), ['shared', 'log']],
  // The OS sandbox and the executor-tool contract (what a call runs with): below runners and the kernel.
  ['sandbox', (p) => p.startsWith('electron/sandbox/'), ['shared', 'log', 'store']],
  ['runners', (p) => p.startsWith('electron/runners/'), ['shared', 'log', 'sandbox']],
  ['kernel', (p) => p.startsWith('electron/kernel/'), ['shared', 'log', 'data-dir', 'store', 'sandbox', 'providers', 'runners']],
  // The agents: a profile's turns (model rounds, hooks, compaction, ask) and the agent profiles. They drive the
  // kernel through its public face like any other caller; governance reaches their turns through a port.
  ['agents', (p) => p.startsWith('electron/agents/'), ['shared', 'log', 'data-dir', 'store', 'sandbox', 'providers', 'runners', 'kernel']],
  ['governance', (p) => p.startsWith('electron/governance/'), ['shared', 'log', 'data-dir', 'store', 'sandbox', 'providers', 'runners', 'kernel']],
  ['demo', (p) => p.startsWith('electron/demo/'), ['shared', 'log', 'data-dir', 'store', 'sandbox', 'providers', 'runners', 'kernel', 'governance']],
  // The team desk (PostgreSQL): a kernel's seat at it. It drives the kernel and governance through their public
  // faces; the API and the composition root sit above it.
  ['desk', (p) => p.startsWith('electron/desk/'), ['shared', 'log', 'data-dir', 'store', 'sandbox', 'providers', 'runners', 'kernel', 'governance']],
  [
    'api',
    (p) => p.startsWith('electron/api/'),
    ['shared', 'log', 'data-dir', 'store', 'sandbox', 'providers', 'runners', 'kernel', 'agents', 'governance', 'demo', 'desk'],
  ],
  // Connected clients (Claude Code, Codex): a module app.ts constructs, whose handlers are typed by api/.
  [
    'external',
    (p) => p.startsWith('electron/external/'),
    ['shared', 'log', 'data-dir', 'connect', 'store', 'sandbox', 'providers', 'runners', 'kernel', 'agents', 'governance', 'demo', 'desk', 'api'],
  ],
  [
    'app',
    (p) => p === 'electron/app.ts',
    ['shared', 'log', 'data-dir', 'store', 'sandbox', 'providers', 'runners', 'kernel', 'agents', 'governance', 'demo', 'desk', 'api', 'connect', 'external'],
  ],
  ['doors', (p) => p.startsWith('electron/doors/'), ['shared', 'log', 'data-dir', 'api']],
  ['cli', (p) => p.startsWith('electron/cli/'), ['shared', 'log', 'data-dir', 'connect', 'api', 'doors']],
  [
    'shell',
    (p) => p.startsWith('electron/'),
    [
      'shared',
      'log',
      'data-dir',
      'store',
      'sandbox',
      'providers',
      'runners',
      'kernel',
      'agents',
      'governance',
      'demo',
      'desk',
      'api',
      'connect',
      'external',
      'app',
      'doors',
    ],
  ],
  ['renderer', (p) => p.startsWith('renderer/'), ['shared']],
];

/** How each layer is named in the docs (docs/architecture.md's table and the folders' READMEs are checked
 *  against LAYERS by test/docs/layers-doc.test.ts: this table is the one source). */
export const LAYER_NAMES = {
  shared: '`shared/`',
  'data-dir': '`electron/store/data-dir.ts`',
  log: '`electron/log.ts`',
  store: '`electron/store/`',
  connect: '`electron/external/connect/`',
  providers: '`electron/providers/`',
  sandbox: '`electron/sandbox/`',
  runners: '`electron/runners/`',
  kernel: '`electron/kernel/`',
  agents: '`electron/agents/`',
  governance: '`electron/governance/`',
  demo: '`electron/demo/`',
  desk: '`electron/desk/`',
  api: '`electron/api/`',
  external: '`electron/external/`',
  app: '`electron/app.ts`',
  doors: '`electron/doors/`',
  cli: '`electron/cli/`',
  shell: 'the rest of `electron/` (`main.ts`, `preload.ts`, `shell/`)',
  renderer: '`renderer/`',
};

/** docs/architecture.md's "Who may import whom" table, made from LAYERS. */
export function layerTable() {
  const rows = LAYERS.map(
    ([name, , allowed]) => `| ${LAYER_NAMES[name]} | ${allowed.length ? allowed.map((a) => LAYER_NAMES[a]).join(', ') : 'nothing of the project but itself'} |`,
  );
  return ['| layer (low → high) | may import |', '|---|---|', ...rows].join('\n');
}

export const layerOf = (p) => LAYERS.find(([, test]) => test(p));
const repoPath = (abs) => relative(ROOT, abs).split(sep).join('/');
/** Imports named as `.js` resolve to the `.ts`/`.tsx` source; the layer only needs the path. */
const target = (file, spec) => repoPath(resolve(dirname(file), spec)).replace(/\.js$/, '.ts');

/** Files that are allowed past the table, each with the reason (entry points that construct everything). */
const ENTRIES = new Map([
  ['electron/cli/serve.ts', 'the `nexus serve` entry constructs the app and opens its doors'],
  ['electron/cli/desk.ts', '`nexus desk init` creates the desk schema in Postgres itself: no kernel is involved'],
]);

export default {
  meta: {
    type: 'problem',
    docs: { description: 'imports run downward only (DESIGN §1.1)' },
    messages: { upward: '{{from}} ({{fromLayer}}) may not import {{to}} ({{toLayer}}): imports run downward only; {{fromLayer}} may import {{allowed}}.' },
    schema: [],
  },
  create(context) {
    const file = context.filename;
    const from = repoPath(file);
    const mine = layerOf(from);
    if (!mine || ENTRIES.has(from)) return {};
    const check = (node, spec) => {
      if (typeof spec !== 'string' || !spec.startsWith('.')) return;
      const to = target(file, spec);
      const theirs = layerOf(to);
      if (!theirs || theirs[0] === mine[0] || mine[2].includes(theirs[0])) return;
      context.report({ node, messageId: 'upward', data: { from, fromLayer: mine[0], to, toLayer: theirs[0], allowed: mine[2].join(', ') || 'only itself' } });
    };
    return {
      ImportDeclaration: (n) => check(n, n.source.value),
      ExportNamedDeclaration: (n) => n.source && check(n, n.source.value),
      ExportAllDeclaration: (n) => check(n, n.source.value),
      ImportExpression: (n) => n.source.type === 'Literal' && check(n, n.source.value),
    };
  },
};
