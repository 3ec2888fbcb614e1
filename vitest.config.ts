import { readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

// Two projects, split by layer: `shared/` and `renderer/` may do no I/O (eslint's nexus/layers rule), so their
// tests are pure logic and run in seconds; everything under `electron/` and `test/` drives the real store, real
// processes and real sockets. `npm run test:unit` runs the first alone for quick feedback.
const UNIT = ['shared/**/*.test.ts', 'renderer/**/*.test.ts', 'renderer/**/*.test.tsx'];
const INTEGRATION = ['electron/**/*.test.ts', 'test/**/*.test.ts'];

export default defineConfig({
  // shared/version.ts: the same version the build bakes in.
  define: { __NEXUS_VERSION__: JSON.stringify(version) },
  test: {
    pool: 'forks',
    globalSetup: ['test/support/orphan-workspaces.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    reporters: ['default'],
    projects: [
      { extends: true, test: { name: 'unit', include: UNIT } },
      { extends: true, test: { name: 'integration', include: INTEGRATION } },
    ],
  },
});
