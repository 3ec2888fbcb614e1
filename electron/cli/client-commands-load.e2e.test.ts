// What the built `nexus` loads: a client command (one that only sends requests over the control socket) loads
// its own small module graph, without zod, the kernel or the SDKs; the names it calls come from
// shared/api/method-names.ts and the types are erased. `serve` is the control: it loads zod, so the tracer
// sees zod when it is there. Whole processes of the real build (scripts/build.mjs), each module resolution
// recorded by a Node module hook (test/support/trace-modules.mjs).
import { beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, ROOT } from '../../test/support/serve.js';
import { removeDir, tempDir } from '../../test/support/world.js';

const BIN = join(ROOT, 'bin', 'nexus.cjs');
const TRACER = pathToFileURL(join(ROOT, 'test', 'support', 'trace-modules.mjs')).href;

/** The module URLs one `nexus` process loaded (against a data dir no kernel serves: the graph is the same). */
function loaded(args: string[]): Promise<string[]> {
  const dir = tempDir('trace');
  const trace = join(dir, 'modules.txt');
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', TRACER, BIN, ...args, '--data-dir', join(dir, 'data')],
      { cwd: ROOT, env: { ...process.env, NEXUS_TRACE_MODULES: trace } },
      () => {
        let lines: string[] = [];
        try {
          lines = readFileSync(trace, 'utf8').split('\n').filter(Boolean);
        } catch {
          // nothing recorded: the assertions below say so
        }
        removeDir(dir);
        resolve(lines);
      },
    );
  });
}
const npm = (urls: string[]) =>
  [...new Set(urls.filter((u) => u.includes('/node_modules/')).map((u) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(u)![1]))].sort();

beforeAll(build, 120_000);

describe('the built nexus command loads only what the command needs', () => {
  it('serve (the control) loads zod: the tracer sees it', async () => {
    const urls = await loaded(['serve', '--help']);
    expect(urls.some((u) => u.endsWith('/dist/cli/main.cjs'))).toBe(true);
    expect(npm(urls)).toContain('zod');
    expect(urls.some((u) => u.endsWith('/dist/cli/nexus-serve.mjs'))).toBe(true);
  });

  it.each([
    ['status'],
    ['inbox'],
    ['agents', 'list'],
    ['agents', 'create', 'missing-agent-file.json'],
    ['runs', 'show', 'r1'],
    ['approve', 'c1'],
    ['settings', 'get'],
    ['chains'],
    ['tasks'],
    ['entitlements', 'show'],
    ['open'],
  ])('nexus %s … loads no npm package at all (no zod)', async (...args) => {
    const urls = await loaded(args);
    expect(urls.some((u) => u.endsWith('/dist/cli/main.cjs'))).toBe(true);
    expect(npm(urls)).toEqual([]);
    expect(urls.filter((u) => u.endsWith('/dist/cli/nexus-serve.mjs'))).toEqual([]);
  });

  // Each costs a client command a few ms at start, and neither is of use to one: the socket's path needs a hash
  // only on Windows, and a file is read with node:fs.
  it.each([['status'], ['inbox'], ['run', 'create', '--rules', 'missing-rules.json']])(
    'nexus %s … loads neither node:crypto nor node:fs/promises',
    async (...args) => {
      const urls = await loaded(args);
      expect(urls.some((u) => u.endsWith('/dist/cli/main.cjs'))).toBe(true);
      expect(urls.filter((u) => u === 'node:crypto' || u === 'node:fs/promises' || u === 'crypto' || u === 'fs/promises')).toEqual([]);
    },
  );
});
