// Compiles the main-process side with esbuild: the `nexus` CLI and the Electron shell.
// Runs in `prepare`, so `node_modules/.bin/nexus` works right after `npm ci`.
// npm packages stay external (better-sqlite3 is native; the rest resolve from node_modules).
import { build } from 'esbuild';
import { existsSync } from 'node:fs';

// The CLI is split at its dynamic imports: `nexus --help` loads the router alone, and each command loads only
// its own module graph (the kernel, the SDKs and zod load for `serve`, not for a client command).
await build({
  entryPoints: { nexus: 'electron/cli/main.ts' },
  outdir: 'dist/cli',
  outExtension: { '.js': '.mjs' },
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
});

const entries = [
  { in: 'electron/main.ts', out: 'dist/electron/main.cjs', format: 'cjs' },
  { in: 'electron/preload.ts', out: 'dist/electron/preload.cjs', format: 'cjs' },
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
    ...(e.out.endsWith('preload.cjs') ? { external: ['electron'] } : { external: ['electron', 'better-sqlite3'] }),
    sourcemap: true,
    logLevel: 'warning',
  });
}
