// The window's build: renderer/ -> dist/renderer (served by the browser host and loaded by Electron).
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

// main.tsx opens the socket first, then import()s the window (start.tsx). Announce that chunk and its imports in
// index.html so the browser fetches and parses them in parallel with the entry instead of after it ran.
function preloadStart(): Plugin {
  return {
    name: 'nexus-preload-start',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        const chunks = Object.values(ctx.bundle ?? {}).filter((c) => c.type === 'chunk');
        const start = chunks.find((c) => c.facadeModuleId?.endsWith('/src/start.tsx'));
        if (!start || start.type !== 'chunk') return [];
        const entries = new Set(chunks.filter((c) => c.isEntry).map((c) => c.fileName));
        return [start.fileName, ...start.imports.filter((f) => !entries.has(f))].map((file) => ({
          tag: 'link',
          attrs: { rel: 'modulepreload', crossorigin: true, href: `./${file}` },
          injectTo: 'head' as const,
        }));
      },
    },
  };
}

export default defineConfig({
  root: 'renderer',
  base: './',
  plugins: [react(), preloadStart()],
  build: {
    outDir: '../dist/renderer',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: true,
    // The CSP forbids inline scripts: keep the module preload polyfill out of index.html.
    modulePreload: { polyfill: false },
  },
});
