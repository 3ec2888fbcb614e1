// Compiles the main-process side with esbuild: the `nexus` CLI, the Electron shell and the clients' tool hook.
// Runs in `prepare`, so `node_modules/.bin/nexus` works right after `npm ci`.
// npm packages stay external where Node resolves them from node_modules (better-sqlite3 is native).
import { build } from 'esbuild';
import { existsSync, readFileSync } from 'node:fs';
import { buildCli, CJS_BANNER, ESM_BANNER } from './build-cli.mjs';

// `nexus --version` and `status` report package.json's version (shared/version.ts).
const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const VERSION = { __NEXUS_VERSION__: JSON.stringify(version) };

await buildCli({ root: '.', outDir: 'dist/cli', define: VERSION });

const entries = [
  { in: 'electron/main.ts', out: 'dist/electron/main.cjs', format: 'cjs' },
  // The `nexus` command inside packaged apps: run by the app's own binary as Node (ELECTRON_RUN_AS_NODE,
  // resources/cli/), loaded with require() from app.asar, so CommonJS with its npm packages bundled.
  { in: 'electron/cli/main.ts', out: 'dist/cli/nexus.cjs', format: 'cjs' },
  { in: 'electron/preload.ts', out: 'dist/electron/preload.cjs', format: 'cjs' },
  // The tool hook connected clients run before every call: node built-ins only, so it starts fast.
  { in: 'electron/external/hook/nexus-hook.ts', out: 'dist/hook/nexus-hook.mjs', format: 'esm' },
];

// A missing entry is a broken build, not a smaller one.
const missing = entries.filter((e) => !existsSync(e.in)).map((e) => e.in);
if (missing.length) throw new Error(`scripts/build.mjs: entry file${missing.length > 1 ? 's' : ''} missing: ${missing.join(', ')}`);

for (const e of entries) {
  await build({
    entryPoints: [e.in],
    outfile: e.out,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: e.format,
    // The sandboxed preload can require only 'electron': bundle its npm imports (zod via shared/api).
    // The CommonJS bundles take their npm packages in too (some, like jose, are ESM-only and a CJS bundle
    // must not depend on require() of ESM); only the native better-sqlite3 and electron stay out.
    ...(e.out.endsWith('preload.cjs')
      ? { external: ['electron'] }
      : e.format === 'cjs'
        ? { external: ['electron', 'better-sqlite3'] }
        : { packages: 'external' }),
    // CommonJS has no import.meta: modules that locate files next to themselves get this file's URL instead.
    define: e.format === 'cjs' ? { ...VERSION, 'import.meta.url': '__nexus_import_meta_url' } : VERSION,
    sourcemap: true,
    logLevel: 'warning',
    banner: e.format === 'esm' ? ESM_BANNER : CJS_BANNER,
  });
}
