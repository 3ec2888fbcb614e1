// The Electron door without the Electron binary: `electron` is replaced by a stand-in ipcMain that records its
// handlers, and webContents by plain objects with the fields the door reads. Everything else is real: the
// door, its sender check, dispatch with zod validation, and the kernel behind it on a fresh SQLite.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { METHOD_NAMES } from '../../shared/api/index.js';
import { MAX_MESSAGE_BYTES } from '../../shared/api/doors.js';
import { harness, probe, type Harness } from '../../test/support/kernel.js';

type Handler = (event: unknown, input: unknown) => Promise<unknown>;
const handlers = new Map<string, Handler>();
vi.mock('electron', () => ({
  ipcMain: {
    handle: (channel: string, fn: Handler) => {
      if (handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
      handlers.set(channel, fn);
    },
    removeHandler: (channel: string) => handlers.delete(channel),
  },
}));
const { startIpcDoor } = await import('./ipc.js');
const { channelOf, EVENT_CHANNEL } = await import('./ipc-sender.js');

const APP_URL = 'file:///opt/nexus/dist/renderer/index.html';

/** A webContents as far as the door reads one: id, main frame, liveness, send. */
function contents(id: number) {
  const mainFrame = { url: `${APP_URL}#/inbox` };
  const sent: Array<{ channel: string; payload: unknown }> = [];
  return {
    id,
    mainFrame,
    sent,
    destroyed: false,
    isDestroyed() {
      return this.destroyed;
    },
    send(channel: string, payload: unknown) {
      sent.push({ channel, payload });
    },
  };
}
type Contents = ReturnType<typeof contents>;
const eventFrom = (sender: Contents, frame: { url: string } = sender.mainFrame) => ({ sender, senderFrame: frame });

let h: Harness | null = null;
let stop: (() => void) | null = null;
afterEach(async () => {
  stop?.();
  await h?.cleanup();
  h = stop = null;
});

async function door() {
  h = await harness();
  const own = contents(7);
  // The door only reads the fields `contents()` models; the cast is the stand-in's one concession.
  stop = startIpcDoor({ nexus: h.nexus, contents: () => own as never, appUrl: APP_URL });
  const call = (event: unknown, method: string, input?: unknown) => {
    const fn = handlers.get(channelOf(method));
    if (!fn) throw new Error(`no handler for ${method}`);
    return fn(event, input);
  };
  return { own, call, nexus: h.nexus };
}

describe('the IPC door (stand-in ipcMain and webContents)', () => {
  it('registers one handler per method of the contract and removes them all when stopped', async () => {
    await door();
    expect([...handlers.keys()].sort()).toEqual(METHOD_NAMES.map(channelOf).sort());
    stop!();
    stop = null;
    expect(handlers.size).toBe(0);
  });

  it('answers the app window and records the decision as the window’s', async () => {
    const { own, call, nexus } = await door();
    probe(nexus);
    const run = nexus.kernel.createRun({ agent: null, mode: 'ask' });
    const row = nexus.kernel.submitRow(run.id, { tool: 'probe', input: {}, origin: 'model' });
    expect(await call(eventFrom(own), 'inboxApprove', { id: row.id })).toMatchObject({ ok: true });
    await nexus.kernel.waitRow(row.id);
    expect(nexus.kernel.getRow(row.id)!.approved_by).toBe('person:window');
  });

  it('refuses another webContents, an iframe, another page and a closed window, and decides nothing', async () => {
    const { own, call, nexus } = await door();
    probe(nexus);
    const run = nexus.kernel.createRun({ agent: null, mode: 'ask' });
    const row = nexus.kernel.submitRow(run.id, { tool: 'probe', input: {}, origin: 'model' });
    const forbidden = { ok: false, error: { code: 'forbidden', message: 'Only the NEXUS window may call this.' } };
    const stranger = contents(8);
    expect(await call(eventFrom(stranger), 'inboxApprove', { id: row.id })).toEqual(forbidden);
    expect(await call(eventFrom(own, { url: `${APP_URL}#/inbox` }), 'inboxApprove', { id: row.id })).toEqual(forbidden);
    expect(await call(eventFrom(own, own.mainFrame), 'inboxApprove', { id: row.id })).toMatchObject({ ok: true });
    const again = nexus.kernel.submitRow(run.id, { tool: 'probe', input: { n: 2 }, origin: 'model' });
    own.mainFrame.url = 'https://evil.example/index.html';
    expect(await call(eventFrom(own), 'inboxApprove', { id: again.id })).toEqual(forbidden);
    own.mainFrame.url = APP_URL;
    own.destroyed = true;
    expect(await call(eventFrom(own), 'inboxApprove', { id: again.id })).toEqual(forbidden);
    expect(nexus.kernel.getRow(again.id)!.state).toBe('needs_approval');
  });

  it('validates input with the method’s schema and survives a handler that throws', async () => {
    const { own, call } = await door();
    expect(await call(eventFrom(own), 'inboxApprove', { id: 42 })).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(await call(eventFrom(own), 'inboxApprove', 'not an object')).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(await call(null, 'status')).toMatchObject({ ok: false, error: { code: 'internal' } });
    const huge = { id: 'x'.repeat(MAX_MESSAGE_BYTES) };
    expect(await call(eventFrom(own), 'inboxApprove', huge)).toMatchObject({ ok: false, error: { code: 'too_large' } });
    expect(await call(eventFrom(own), 'status')).toMatchObject({ ok: true });
  });

  it('pushes kernel events to the window only while it is alive', async () => {
    const { own, nexus } = await door();
    probe(nexus);
    const run = nexus.kernel.createRun({ agent: null, mode: 'ask' });
    nexus.kernel.submitRow(run.id, { tool: 'probe', input: {}, origin: 'model' });
    expect(own.sent.length).toBeGreaterThan(0);
    expect(own.sent.every((s) => s.channel === EVENT_CHANNEL)).toBe(true);
    const before = own.sent.length;
    own.destroyed = true;
    nexus.kernel.submitRow(run.id, { tool: 'probe', input: { n: 2 }, origin: 'model' });
    expect(own.sent.length).toBe(before);
  });
});
