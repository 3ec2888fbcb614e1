// No input stops the kernel: thousands of random frames to the browser host's WebSocket and random lines to the
// control socket (random JSON, random bytes, huge, deeply nested, `null`, arrays, numbers, wrong types for
// id/method/input, partial lines), both authenticated, while a run is in flight (an author bash row sleeping).
// The kernel must answer every connection afterwards and the run must finish. An exception escaping a door
// would surface here as an unhandled error, which fails the test run.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createConnection, type Socket } from 'node:net';
import { join } from 'node:path';
import WebSocket from 'ws';
import { METHOD_NAMES } from '../../shared/api/index.js';
import { dispatch } from '../api/dispatch.js';
import { callKernel } from '../cli/client.js';
import { harness, type Harness } from '../../test/support/kernel.js';
import { credentialPath } from './credential.js';
import { startSocketDoor, type SocketDoor } from './socket.js';
import { startWebDoor, type WebDoor } from './web.js';

let h: Harness;
let sock: SocketDoor;
let web: WebDoor;
beforeAll(async () => {
  h = await harness();
  const staticDir = join(h.dir, 'renderer');
  mkdirSync(staticDir);
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>NEXUS</title>');
  sock = await startSocketDoor(h.nexus, { webOpen: () => web.issueUrl() });
  web = await startWebDoor({ nexus: h.nexus, port: 0, staticDir });
});
afterAll(async () => {
  await web?.close();
  await sock?.close();
  await h?.cleanup();
});

// Methods that would legitimately end the run in flight (a person's Stop) are left out; everything else is fair.
const ENDS_RUNS = new Set(['stopAll', 'runsStop', 'resume', 'demoStart', 'entitlementsRefresh']);
const method = fc.oneof(
  fc.constantFrom(...METHOD_NAMES.filter((m) => !ENDS_RUNS.has(m)), 'subscribe', 'auth', 'webOpen', '__proto__', 'constructor', 'toString'),
  fc.string(),
  fc.integer(),
  fc.constant(null),
  fc.array(fc.string()),
);
const request = fc.record(
  {
    id: fc.oneof(fc.integer(), fc.string(), fc.constant(null), fc.object(), fc.array(fc.integer()), fc.double()),
    method,
    input: fc.oneof(fc.jsonValue(), fc.anything()),
  },
  { requiredKeys: [] },
);
const text = fc.oneof(
  {
    weight: 4,
    arbitrary: request.map((r) => {
      try {
        return JSON.stringify(r);
      } catch {
        return '{}';
      }
    }),
  },
  { weight: 2, arbitrary: fc.json() },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 200 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      'null',
      '[]',
      '0',
      '-1',
      '""',
      'true',
      '{}',
      '{"id":null}',
      '{"method":{}}',
      '{"id":1,"method":"status","input":null}',
      '{"id":1,"method":"inboxApprove","input":"x"}',
    ),
  },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 3000 }).map((n) => '['.repeat(n) + ']'.repeat(n)) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 2000 }).map((n) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`) },
);
const huge = () => JSON.stringify({ id: 1, method: 'rulesCheck', input: { rules: [{ tool: 'x'.repeat(600_000), verdict: 'allow' }] } });

function wsClient(): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${web.port}/api`, { headers: { origin: web.origin } });
    ws.once('open', () => ws.send(JSON.stringify({ auth: { launch: new URL(web.issueUrl()).hash.slice('#token='.length) } })));
    ws.once('message', (d) => (JSON.parse(d.toString()).auth?.ok ? resolve(ws) : reject(new Error(d.toString()))));
    ws.once('error', reject);
  });
}
function socketClient(): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const c = createConnection(sock.path);
    c.once('connect', () => {
      c.write(`${JSON.stringify({ id: 0, method: 'auth', input: { token: readFileSync(credentialPath(h.dir), 'utf8').trim() } })}\n`);
      c.once('data', () => resolve(c));
    });
    c.once('error', reject);
  });
}
const drained = (c: Socket) => new Promise<void>((r) => (c.writableNeedDrain ? c.once('drain', () => r()) : r()));

describe('fuzzing the doors while a run is in flight', () => {
  it('thousands of random frames and lines: every door still answers and the run finishes', async () => {
    const call = (m: string, input: unknown) => dispatch(h.nexus.handlers, m, input, { door: 'internal' });
    const run = (await call('runsCreate', { mode: 'bypass' })) as { ok: true; value: { id: string } };
    const appended = (await call('runsAppend', { run_id: run.value.id, tool: 'bash', input: { command: 'sleep 2; echo survived' } })) as {
      ok: true;
      value: { id: string };
    };
    expect(appended.ok).toBe(true);
    const rowId = appended.value.id;

    const frames = fc.sample(text, { numRuns: 2500, seed: 20261201 });
    const ws = await wsClient();
    const wsAnswers: unknown[] = [];
    ws.on('message', (d) => wsAnswers.push(d));
    const sc = await socketClient();
    let socketBytes = 0;
    sc.on('data', (d) => (socketBytes += d.length));
    sc.on('error', () => {});

    for (const [i, f] of frames.entries()) {
      ws.send(i % 97 === 0 ? Buffer.from(f) : f, { binary: i % 97 === 0 });
      // Lines split at random places: a partial line waits for its end, whole lines are handled one by one.
      const line = `${f.replace(/\n/g, ' ')}\n`;
      const cut = i % 7;
      sc.write(line.slice(0, cut));
      sc.write(line.slice(cut));
      if (i % 250 === 0) await drained(sc);
    }
    ws.send(huge());
    sc.write(`${huge()}\n`);
    sc.write('{"id": 5, "method": "status", "input": {'); // a partial line left open
    await drained(sc);

    // Every door answers: fresh connections and the fuzzed ones alike.
    const seenBefore = wsAnswers.length;
    const status = await new Promise<unknown>((resolve) => {
      ws.on('message', (d) => {
        const m = JSON.parse(d.toString());
        if (m.id === 'after-fuzz') resolve(m.result);
      });
      ws.send(JSON.stringify({ id: 'after-fuzz', method: 'status', input: {} }));
    });
    expect(status).toMatchObject({ ok: true, value: { data_dir: h.dir } });
    expect(seenBefore).toBeGreaterThan(frames.length / 2);
    expect(socketBytes).toBeGreaterThan(0);
    expect(await callKernel(h.dir, 'status', {})).toMatchObject({ ok: true });
    const fresh = await wsClient();
    fresh.close();

    // The run in flight finishes as if nothing happened.
    const waited = (await call('rowsWait', { id: rowId, timeout_ms: 15_000 })) as {
      ok: true;
      value: { state: string; result: { content: { text: string }[] } };
    };
    expect(waited.value.state).toBe('succeeded');
    expect(JSON.stringify(waited.value.result)).toContain('survived');
    ws.close();
    sc.destroy();
  }, 60_000);
});
