// Window tests at a team desk: `nexus serve` processes (one data dir each) joined to one real Postgres cluster
// (pg-cluster.ts), each with an API client on its own WebSocket, as a second window or the CLI would be.
import WebSocket from 'ws';
import type { ChildProcess } from 'node:child_process';
import { connectKernel } from '../../electron/cli/client.js';
import { createWebBridge, type SocketLike, type WebBridge } from '../../renderer/src/api/web-bridge.js';
import type { InputOf, Methods, MethodName, OutputOf } from '../../shared/api/index.js';
import { serve, stop } from './e2e-fixtures.js';
import { removeDir, tempDir } from './world.js';

export interface DeskServer {
  dataDir: string;
  /** A one-time address that opens the window (ask `fresh()` for another). */
  url: string;
  process: ChildProcess;
  call<K extends MethodName>(name: K, input: InputOf<Methods[K]>): Promise<OutputOf<Methods[K]>>;
  fresh(): Promise<string>;
  log(): string;
  close(): Promise<void>;
}

/** `nexus serve` on a fresh data dir; with `desk`, joined to it as that machine and person. */
export async function serveAtDesk(desk?: { url: string; machine: string; person: string }): Promise<DeskServer> {
  const dataDir = tempDir(`e2e-desk-${desk?.machine ?? 'none'}`);
  const args = desk ? ['--desk', desk.url, '--machine', desk.machine, '--desk-person', desk.person] : [];
  const { child, url, log } = await serve(dataDir, {}, args);
  const u = new URL(url);
  const fresh = async () => {
    const k = await connectKernel(dataDir);
    try {
      const opened = await k.call('webOpen');
      if (!opened.ok) throw new Error(`webOpen failed: ${opened.error.message}`);
      return (opened.value as { url: string }).url;
    } finally {
      k.close();
    }
  };
  const api: WebBridge = createWebBridge({
    url: `ws://${u.host}/api`,
    launch: new URL(await fresh()).hash.slice('#token='.length),
    socket: (wsUrl) => new WebSocket(wsUrl, { headers: { origin: u.origin } }) as unknown as SocketLike,
  });
  return {
    dataDir,
    url,
    process: child,
    async call(name, input) {
      const r = await (api[name] as (i: unknown) => Promise<{ ok: boolean; value?: unknown; error?: { code: string; message: string } }>)(input);
      if (!r.ok) throw new Error(`${name} failed: ${r.error!.code}: ${r.error!.message}`);
      return r.value as never;
    },
    fresh,
    log,
    async close() {
      api.close();
      await stop(child);
      removeDir(dataDir);
    },
  };
}
