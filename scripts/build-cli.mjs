// The `nexus` command as a checkout runs it (bin/nexus.cjs): CommonJS, a small router and one file per command
// group, so a client command starts as fast as Node itself can (no ESM loader, nothing it does not use).
// `serve` alone is an ES module: it loads ESM-only packages (jose) that require() cannot load on Node 20.
// npm packages stay external, resolved from node_modules. Used by scripts/build.mjs and by tests that build a
// private copy.
import { build } from 'esbuild';
import { join } from 'node:path';

/** The command modules main.ts routes to, each built to dist/cli/nexus-<name>.cjs (serve: nexus-serve.mjs). */
export const CLI_GROUPS = [
  'rules',
  'open',
  'kernel-commands',
  'runs-commands',
  'agents-commands',
  'inbox-commands',
  'orchestration',
  'connect',
  'desk-commands',
];

export const CJS_BANNER = { js: "const __nexus_import_meta_url = require('node:url').pathToFileURL(__filename).href;" };
export const ESM_BANNER = { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" };

/**
 * main.ts's `import('./kernel-commands.js')` becomes a require() of the group's own file at run time, and
 * `import('./serve.js')` an import() of the ES module: the router bundles no command.
 */
const routes = {
  name: 'nexus-command-files',
  setup(b) {
    const group = new RegExp(`^\\./(${[...CLI_GROUPS, 'serve'].join('|')})\\.js$`);
    b.onResolve({ filter: group }, (a) => (/[\\/]electron[\\/]cli[\\/]main\.ts$/.test(a.importer) ? { path: a.path, namespace: 'nexus-command' } : undefined));
    b.onLoad({ filter: /.*/, namespace: 'nexus-command' }, (a) => {
      const name = group.exec(a.path)[1];
      const contents =
        name === 'serve'
          ? "export const serveCommand = (argv, io) => import('./nexus-serve.mjs').then((m) => m.serveCommand(argv, io));" +
            "export const deskCommand = (argv, io) => import('./nexus-serve.mjs').then((m) => m.deskCommand(argv, io));"
          : `module.exports = require('./nexus-${name}.cjs');`;
      return { contents, loader: 'js' };
    });
    b.onResolve({ filter: /^\.\/nexus-/ }, (a) => ({ path: a.path, external: true }));
  },
};

/** Build the CLI into `outDir` (dist/cli): main.cjs, nexus-<group>.cjs, nexus-serve.mjs. */
export async function buildCli({ root, outDir, define = {}, sourcemap = true, logLevel = 'warning' }) {
  const common = { bundle: true, platform: 'node', target: 'node20', packages: 'external', sourcemap, logLevel };
  // CommonJS has no import.meta: modules that locate files next to themselves get this file's URL instead.
  const cjs = { ...common, format: 'cjs', define: { ...define, 'import.meta.url': '__nexus_import_meta_url' }, banner: CJS_BANNER };
  await Promise.all([
    build({ ...cjs, entryPoints: [join(root, 'electron/cli/main.ts')], outfile: join(outDir, 'main.cjs'), plugins: [routes] }),
    build({
      ...cjs,
      entryPoints: Object.fromEntries(CLI_GROUPS.map((g) => [`nexus-${g}`, join(root, 'electron/cli', `${g}.ts`)])),
      outdir: outDir,
      outExtension: { '.js': '.cjs' },
    }),
    build({
      ...common,
      format: 'esm',
      define,
      banner: ESM_BANNER,
      entryPoints: { 'nexus-serve': join(root, 'electron/cli/serve.ts') },
      outdir: outDir,
      outExtension: { '.js': '.mjs' },
    }),
  ]);
}
