// Compiles the main-process side with esbuild: the `nexus` CLI and the Electron shell.
// Runs in `prepare`, so `node_modules/.bin/nexus` works right after `npm ci`.
// npm packages stay external (better-sqlite3 is native; the rest resolve from node_modules).
import { build } from 'esbuild';
import { existsSync, readFileSync } from 'node:fs';

// `nexus --version` and `status` report package.json's version (shared/version.ts).
const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

const entries = [
  { in: 'electron/cli/main.ts', out: 'dist/cli/nexus.mjs', format: 'esm' },
  { in: 'electron/main.ts', out: 'dist/electron/main.cjs', format: 'cjs' },
  // The `nexus` command inside packaged apps: run by the app's own binary as Node (ELECTRON_RUN_AS_NODE,
  // resources/cli/), loaded with require() from app.asar, so CommonJS with its npm packages bundled.
  { in: 'electron/cli/main.ts', out: 'dist/cli/nexus.cjs', format: 'cjs' },
  { in: 'electron/preload.ts', out: 'dist/electron/preload.cjs', format: 'cjs' },
  // The tool hook connected clients run before every call: node built-ins only, so it starts fast.
  { in: 'electron/external/hook/nexus-hook.ts', out: 'dist/hook/nexus-hook.mjs', format: 'esm' },
];

for (const e of entries) {
  if (!existsSync(e.in)) continue;
  await build({
    entryPoints: [e.in],
    outfile: e.out,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: e.format,
    // The sandboxed preload can require only 'electron': bundle its npm imports (zod via shared/api).
    // The Electron main bundle takes its npm packages in too (some, like jose, are ESM-only and a CJS
    // bundle must not depend on require() of ESM); only the native better-sqlite3 and electron stay out.
    // The CLI runs on plain Node as ESM and resolves packages from node_modules.
    ...(e.out.endsWith('preload.cjs')
      ? { external: ['electron'] }
      : e.out.endsWith('.cjs')
        ? { external: ['electron', 'better-sqlite3'] }
        : { packages: 'external' }),
    define: { __NEXUS_VERSION__: JSON.stringify(version) },
    sourcemap: true,
    logLevel: 'warning',
    banner:
      e.format === 'esm'
        ? { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" }
        : { js: "const __nexus_import_meta_url = require('node:url').pathToFileURL(__filename).href;" },
    // CommonJS has no import.meta: modules that locate files next to themselves get this file's URL instead.
    define: e.format === 'cjs' ? { 'import.meta.url': '__nexus_import_meta_url' } : undefined,
  });
}
