import { readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

export default defineConfig({
  // shared/version.ts: the same version the build bakes in.
  define: { __NEXUS_VERSION__: JSON.stringify(version) },
  test: {
    include: ['shared/**/*.test.ts', 'electron/**/*.test.ts', 'test/**/*.test.ts', 'renderer/**/*.test.ts', 'renderer/**/*.test.tsx'],
    pool: 'forks',
    globalSetup: ['test/orphan-workspaces.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    reporters: ['default'],
  },
});
