// Issue 25.2: a fresh clone, `npm ci`'s prepare step, then the tutorial's first command serves the window.
// `npm ci` itself is not rerun (it would fetch every package): the clone reuses this checkout's node_modules
// through a symlink and runs exactly what npm ci runs after installing, the `prepare` script.
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from './support/docs-markdown.js';
import { stopChild, world } from './support/world.js';

const w = world();
const tmp = w.dir('fresh-clone');
afterAll(() => w.cleanup());

describe('a fresh clone after npm ci', () => {
  it('prepare builds the nexus command and the window, and nexus serve answers 200 at /', { timeout: 240_000 }, async () => {
    const clone = join(tmp, 'nexus');
    execFileSync('git', ['clone', '--quiet', '--no-hardlinks', ROOT, clone]);
    symlinkSync(join(ROOT, 'node_modules'), join(clone, 'node_modules'));
    execFileSync('npm', ['run', '--silent', 'prepare'], { cwd: clone, stdio: 'ignore', timeout: 200_000 });
    const serve = spawn(process.execPath, [join(clone, 'bin/nexus.cjs'), 'serve'], {
      cwd: clone,
      env: { ...process.env, NEXUS_DATA_DIR: join(tmp, 'data'), HOME: tmp },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    w.defer(() => stopChild(serve));
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      serve.stdout!.on('data', (b: Buffer) => {
        out += b.toString();
        const m = /NEXUS is serving at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(out);
        if (m) resolve(m[1]);
      });
      serve.on('exit', (code) => reject(new Error(`nexus serve exited ${code}: ${out}`)));
    });
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('<div id="root"');
  });

  it('the tutorial names the Node versions package.json engines says', () => {
    const engines = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;
    expect(readFileSync(join(ROOT, 'docs/tutorial.md'), 'utf8')).toContain(`You need Node \`${engines}\``);
  });
});
