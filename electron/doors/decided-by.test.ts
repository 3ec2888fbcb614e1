// Every decision records the door the person used: `person:cli` (control socket), `person:browser` (browser
// host), `person:window` (the app window's IPC door passes door 'ipc'). Shown where decisions are shown: the
// API's run detail and `nexus runs show`.
import { afterEach, describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import WebSocket from 'ws';
import { harness, probe, type Harness } from '../../test/support/kernel.js';
import { dispatch, personBy } from '../api/dispatch.js';
import { callKernel } from '../cli/client.js';
import { main } from '../cli/main.js';
import { startSocketDoor, type SocketDoor } from './socket.js';
import { startWebDoor, type WebDoor } from './web.js';
import { createWebBridge, type SocketLike } from '../../renderer/src/api/web-bridge.js';
import { decidedBy } from '../../shared/api/doors.js';

let h: Harness | null = null;
let sock: SocketDoor | null = null;
let web: WebDoor | null = null;
afterEach(async () => {
  await web?.close();
  await sock?.close();
  await h?.cleanup();
  h = sock = web = null;
});

describe('decisions record their door', () => {
  it('names the doors for people', () => {
    expect([personBy({ door: 'ipc' }), personBy({ door: 'web' }), personBy({ door: 'socket' }), personBy({ door: 'internal' })]).toEqual([
      'person:window',
      'person:browser',
      'person:cli',
      'person:internal',
    ]);
    expect(decidedBy('person:cli')).toBe('you with the nexus command');
    expect(decidedBy('person:browser')).toBe('you in the browser');
    expect(decidedBy('person:window')).toBe('you in the app window');
    expect(decidedBy('executor:alice')).toBe('executor:alice');
  });

  it('approvals through the socket, the browser host and the window are told apart on the row, the card and in runs show', async () => {
    h = await harness();
    probe(h.nexus);
    const staticDir = join(h.dir, 'renderer');
    mkdirSync(staticDir);
    writeFileSync(join(staticDir, 'index.html'), '<!doctype html>');
    sock = await startSocketDoor(h.nexus);
    web = await startWebDoor({ nexus: h.nexus, port: 0, staticDir });
    const k = h.nexus.kernel;
    const run = k.createRun({ agent: null, mode: 'ask' });
    const [viaCli, viaBrowser, viaWindow] = [1, 2, 3].map((n) => k.submitRow(run.id, { tool: 'probe', input: { n }, origin: 'model' }));

    expect(await callKernel(h.dir, 'inboxApprove', { id: viaCli!.id })).toMatchObject({ ok: true });
    const w = web;
    const bridge = createWebBridge({
      url: `ws://127.0.0.1:${w.port}/api`,
      launch: new URL(w.url).hash.slice('#token='.length),
      socket: (u) => new WebSocket(u, { headers: { origin: w.origin } }) as unknown as SocketLike,
    });
    expect(await bridge.inboxApprove({ id: viaBrowser!.id })).toMatchObject({ ok: true });
    bridge.close();
    expect(await dispatch(h.nexus.handlers, 'inboxApprove', { id: viaWindow!.id }, { door: 'ipc' })).toMatchObject({ ok: true });

    for (const [row, by] of [
      [viaCli, 'person:cli'],
      [viaBrowser, 'person:browser'],
      [viaWindow, 'person:window'],
    ] as const) {
      await k.waitRow(row!.id);
      expect(k.getRow(row!.id)!.approved_by).toBe(by);
      expect(h.nexus.db.prepare('SELECT resolved_by FROM inbox WHERE row_id = ?').get(row!.id)).toEqual({ resolved_by: by });
    }
    const shown = (await dispatch(h.nexus.handlers, 'runsShow', { id: run.id }, { door: 'internal' })) as {
      ok: true;
      value: { rows: { approved_by?: string | null }[] };
    };
    expect(shown.value.rows.map((r) => r.approved_by)).toEqual(['person:cli', 'person:browser', 'person:window']);

    let out = '';
    const code = await main(['runs', 'show', run.id, '--data-dir', h.dir], { out: (t) => (out += `${t}\n`), err: (t) => (out += `${t}\n`) });
    expect(code).toBe(0);
    expect(out).toContain('approved by you with the nexus command');
    expect(out).toContain('approved by you in the browser');
    expect(out).toContain('approved by you in the app window');
  });
});
