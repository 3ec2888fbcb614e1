// Runners against real MCP servers: the npm package server-everything over stdio (a child process that
// must not outlive the pool) and an SDK McpServer over Streamable HTTP on 127.0.0.1.
import { afterEach, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { startHttpMcpServer, type HttpMcpServer } from '../../test/support/mcp-http-server.js';
import { toolsForAgent } from './agent-tools.js';
import { McpRunner, RunnerError } from './mcp-runner.js';
import { RunnerPool } from './pool.js';
import { runnerId } from './runner-id.js';

const require = createRequire(import.meta.url);
const EVERYTHING = join(dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist/index.js');
const stdioEverything = { command: process.execPath, args: [EVERYTHING, 'stdio'] };

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});
const ctx = (signal = new AbortController().signal) => ({ signal }) as never;

describe('runners', () => {
  it('a runner id is 12 lowercase hex, stable per config name', () => {
    expect(runnerId('everything')).toMatch(/^[0-9a-f]{12}$/);
    expect(runnerId('everything')).toBe(runnerId('everything'));
    expect(runnerId('everything')).not.toBe(runnerId('other'));
  });

  it('rejects a server config that is neither stdio nor http', () => {
    expect(() => new McpRunner('x', {})).toThrow(RunnerError);
    expect(() => new McpRunner('x', { command: 'a', url: 'http://127.0.0.1:1/' })).toThrow(/exactly one/);
    expect(() => new McpRunner('x', { url: 'file:///etc/passwd' })).toThrow(/http/);
  });

  it('connects to server-everything over stdio, calls echo, and leaves no child process after closeAll', async () => {
    const pool = new RunnerPool();
    const set = await toolsForAgent(pool, 'a1', { everything: stdioEverything }, ['bash', 'read']);
    expect(set.failures).toEqual([]);
    const echo = set.tools.find((t) => t.name === 'echo')!;
    expect(echo).toMatchObject({ served: 'echo', runner: runnerId('everything'), server: 'everything' });
    const res = await echo.run({ message: 'hello runner' }, ctx());
    expect(res.content[0]!.text).toBe('Echo: hello runner');
    const structured = set.tools.find((t) => t.name === 'get-structured-content')!;
    const s = await structured.run({ location: 'Chicago' }, ctx());
    expect(s.structuredContent).toHaveProperty('temperature');
    const pid = pool.get('a1', 'everything', stdioEverything).pid!;
    expect(pid).toBeGreaterThan(0);
    expect(alive(pid)).toBe(true);
    await pool.closeAll();
    expect(alive(pid)).toBe(false);
  });

  it('a Streamable HTTP server works, and two runners serving the same name are offered qualified', async () => {
    const a: HttpMcpServer = await startHttpMcpServer({ echo: { handler: (x) => `A says ${String(x.message)}` }, only_a: { handler: () => 'a' } });
    const b: HttpMcpServer = await startHttpMcpServer({ echo: { handler: (x) => `B says ${String(x.message)}` } });
    cleanups.push(a.close, b.close);
    const pool = new RunnerPool();
    cleanups.push(() => pool.closeAll());
    const set = await toolsForAgent(pool, 'a1', { alpha: { url: a.url }, beta: { url: b.url } }, ['bash']);
    const names = set.tools.map((t) => t.name).sort();
    expect(names).toEqual([`echo__${runnerId('alpha')}`, `echo__${runnerId('beta')}`, 'only_a'].sort());
    const viaBeta = set.tools.find((t) => t.name === `echo__${runnerId('beta')}`)!;
    expect((await viaBeta.run({ message: 'hi' }, ctx())).content[0]!.text).toBe('B says hi');
    expect(b.calls).toEqual([{ tool: 'echo', args: { message: 'hi' } }]);
    expect(a.calls).toEqual([]);
  });

  it('a tool that shadows a kernel tool is qualified; an unreachable server is reported, not fatal', async () => {
    const a = await startHttpMcpServer({ bash: { handler: () => 'not the kernel bash' } });
    cleanups.push(a.close);
    const pool = new RunnerPool({ connectTimeoutMs: 5000 });
    cleanups.push(() => pool.closeAll());
    const set = await toolsForAgent(pool, 'a1', { srv: { url: a.url }, dead: { url: 'http://127.0.0.1:9/mcp' } }, ['bash']);
    expect(set.tools.map((t) => t.name)).toEqual([`bash__${runnerId('srv')}`]);
    expect(set.failures.map((f) => f.server)).toEqual(['dead']);
    expect(set.failures[0]!.message).toMatch(/could not be started or reached/);
  });

  it('server-everything in its streamableHttp mode (a separate process on 127.0.0.1) serves through the HTTP transport', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const p = (probe.address() as { port: number }).port;
        probe.close(() => resolve(p));
      });
    });
    const child = spawn(process.execPath, [EVERYTHING, 'streamableHttp'], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] });
    cleanups.push(async () => {
      const gone = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await gone;
    });
    await new Promise<void>((resolve, reject) => {
      let err = '';
      const t = setTimeout(() => reject(new Error(`server-everything did not start: ${err}`)), 15_000);
      child.stderr!.on('data', (d) => {
        err += d;
        if (/listening on port/i.test(err)) {
          clearTimeout(t);
          resolve();
        }
      });
    });
    const pool = new RunnerPool();
    cleanups.push(() => pool.closeAll());
    const set = await toolsForAgent(pool, 'a1', { remote: { url: `http://127.0.0.1:${port}/mcp` } }, []);
    expect(set.failures).toEqual([]);
    const echo = set.tools.find((t) => t.name === 'echo')!;
    expect((await echo.run({ message: 'over http' }, ctx())).content[0]!.text).toBe('Echo: over http');
  });
});
