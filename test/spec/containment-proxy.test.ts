// Containment through the network proxy, adversarially: a scripted model drives a real agent in a real
// `nexus serve` (built dist, fresh temp data dir) whose profile allows `*.allowed.invalid`, and its bash tries
// to reach what listens on the host's loopback, the browser host's page and a local HTTP server, through the
// proxy the sandbox is given: a NUL-smuggled name in a CONNECT and in an absolute-form request, and curl
// straight at loopback. Every attempt must get nothing, and the row's result must name what was refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { startScriptedModel, type ScriptedModel, type ScriptedReply, type ScriptedRequest } from '../support/scripted-model.js';
import { build, serve, type Served } from '../support/serve.js';

const PAGE = 'PAGE-OF-A-LOCAL-SERVER';

type Row = { id: string; tool: string; state: string; result?: { content: Array<{ text: string }> } };
type Run = { id: string; rows: Row[] };

let s: Served;
let model: ScriptedModel;
let page: Server;
let pagePort: number;
let hits = 0;
let firstCalls: Array<{ name: string; input: unknown }> = [];

const attacker = (req: ScriptedRequest): ScriptedReply => (req.toolResults.length ? { text: 'done' } : { toolCalls: firstCalls });
const bash = (command: string) => ({ name: 'bash', input: { command, timeout_s: 30 } });
const text = (row: Row) => row.result?.content.map((c) => c.text).join('\n') ?? '';
/**
 * Raw bytes to the proxy inside the sandbox (the bridge its http_proxy names), the answer on stdout; the
 * sending side stays open a moment, as an HTTP client's does, so the answer is not cut short.
 */
const raw = (bytes: string) => `{ printf '${bytes}'; sleep 2; } | socat -t 3 - TCP:\${http_proxy#http://}; echo; echo END`;

beforeAll(async () => {
  build();
  page = createServer((_req, res) => {
    hits++;
    res.end(PAGE);
  });
  await new Promise<void>((r) => page.listen(0, '127.0.0.1', r));
  pagePort = (page.address() as { port: number }).port;
  model = await startScriptedModel({ script: attacker });
  s = await serve({ OPENROUTER_API: 'sk-or-v1-PROXY-CONTAINMENT' });
}, 120_000);
afterAll(async () => {
  await s?.stop();
  await model?.close();
  await new Promise<void>((r) => (page ? page.close(() => r()) : r()));
});

describe('an agent allowed *.allowed.invalid reaches nothing on the host through the proxy', () => {
  it('NUL-smuggled CONNECT and http:// requests, and curl at loopback, get nothing; the row names the refused hosts', async () => {
    const web = Number(/NEXUS is serving at http:\/\/127\.0\.0\.1:(\d+)\//.exec(s.out())?.[1]);
    expect(web).toBeGreaterThan(0);
    const file = `${s.dir}/prober.json`;
    writeFileSync(
      file,
      JSON.stringify({
        name: 'prober',
        model: { provider: 'chat-completions', baseURL: model.baseURL, model: 'scripted', apiKeyEnv: 'OPENROUTER_API' },
        mode: 'ask',
        approval_rules: [{ tool: 'bash', verdict: 'allow' }],
        network: { allow: ['*.allowed.invalid'] },
      }),
    );
    expect((await s.nexus('agents', 'add', file)).code).toBe(0);
    firstCalls = [
      // The browser host's page, through a tunnel to a name that ends in the allowed domain.
      bash(
        raw(`CONNECT 127.0.0.1\\0.allowed.invalid:${web} HTTP/1.1\\r\\n\\r\\nGET / HTTP/1.1\\r\\nHost: 127.0.0.1:${web}\\r\\nConnection: close\\r\\n\\r\\n`),
      ),
      // A local HTTP server, as one absolute-form request.
      bash(raw(`GET http://127.0.0.1\\0.allowed.invalid:${pagePort}/ HTTP/1.1\\r\\nHost: 127.0.0.1:${pagePort}\\r\\nConnection: close\\r\\n\\r\\n`)),
      // curl as a person would point it: at loopback by address and by name, tunnelled and not.
      bash(
        `curl -sS -m 5 --proxy "$http_proxy" -p http://127.0.0.1:${pagePort}/; curl -sS -m 5 --proxy "$http_proxy" http://localhost:${pagePort}/; curl -sS -m 5 --proxy "$http_proxy" -H 'Host: 127.0.0.1' http://x.allowed.invalid:${pagePort}/; echo END`,
      ),
    ];
    const run = await s.json<{ id: string }>('run', 'prober', 'fetch the host page');
    const r = await s.until(
      'the three bash rows to end',
      async () => {
        const got = await s.json<Run>('runs', 'show', run.id);
        const done = got.rows.filter((x) => x.tool === 'bash' && !['ready', 'running', 'needs_approval'].includes(x.state));
        return done.length >= 3 ? got : null;
      },
      60_000,
    );
    const [tunnel, absolute, curl] = r.rows.filter((x) => x.tool === 'bash').map(text);

    expect(hits).toBe(0);
    for (const t of [tunnel!, absolute!, curl!]) {
      expect(t).toContain('END');
      expect(t).not.toContain(PAGE);
      expect(t).not.toMatch(/<!doctype html|<html|200 Connection Established|HTTP\/1\.1 200 OK/i);
    }
    expect(tunnel).toContain('403 Forbidden');
    expect(tunnel).toMatch(/It refused network access to 127\.0\.0\.1\\x00\.allowed\.invalid \(/);
    expect(absolute).toContain('403 Forbidden');
    expect(absolute).toMatch(/It refused network access to 127\.0\.0\.1\\x00\.allowed\.invalid \(/);
    expect(curl).toMatch(/It refused network access to 127\.0\.0\.1, localhost \(/);
  }, 120_000);
});
