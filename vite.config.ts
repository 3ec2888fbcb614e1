// The window's build: renderer/ -> dist/renderer (served by the browser host and loaded by Electron).
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  root: 'renderer',
  base: './',
  plugins: [react()],
  build: {
    outDir: '../dist/renderer',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: true,
    // The CSP forbids inline scripts: keep the module preload polyfill out of index.html.
    modulePreload: { polyfill: false },
  },
});
