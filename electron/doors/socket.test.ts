// The control socket door in process: stale file cleanup, path limits, the Windows pipe name.
import { afterEach, describe, expect, it } from 'vitest';
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { socketPath, startSocketDoor } from './socket.js';
import { callKernel, connectKernel, NoKernelError } from '../cli/client.js';
import { harness, type Harness } from '../../test/support/kernel.js';
import { world } from '../../test/support/world.js';
import type { Handlers } from '../api/dispatch.js';

let h: Harness | null = null;
afterEach(async () => {
  await h?.cleanup();
  h = null;
});

describe('socket door', () => {
  it('cleans a stale socket file left by a dead kernel, serves 0600, removes it on close', async () => {
    h = await harness();
    writeFileSync(join(h.dir, 'nexus.sock'), '');
    const door = await startSocketDoor(h.nexus);
    expect(statSync(door.path).mode & 0o777).toBe(0o600);
    const r = await callKernel(h.dir, 'status', {});
    expect(r).toMatchObject({ ok: true, value: { data_dir: h.dir } });
    await door.close();
    await expect(callKernel(h.dir, 'status', {})).rejects.toBeInstanceOf(NoKernelError);
  });

  it('refuses to start when another door answers on the same socket', async () => {
    h = await harness();
    const door = await startSocketDoor(h.nexus);
    try {
      await expect(startSocketDoor(h.nexus)).rejects.toThrow(/Another NEXUS kernel is answering/);
    } finally {
      await door.close();
    }
  });

  it('a subscriber receives kernel events', async () => {
    h = await harness();
    const door = await startSocketDoor(h.nexus);
    const conn = await connectKernel(h.dir);
    try {
      const seen: string[] = [];
      await conn.subscribe((e) => seen.push(e.type));
      h.nexus.kernel.createRun({ agent: null, mode: 'ask' });
      for (let i = 0; i < 50 && !seen.includes('runs_changed'); i++) await new Promise((r) => setTimeout(r, 10));
      expect(seen).toContain('runs_changed');
    } finally {
      conn.close();
      await door.close();
    }
  });

  it('a data dir too deep for a Unix socket path is refused clearly', async () => {
    const w = world();
    const base = w.dir('sock');
    const deep = join(base, 'x'.repeat(60), 'y'.repeat(60));
    mkdirSync(deep, { recursive: true });
    try {
      await expect(startSocketDoor({ dataDir: deep, handlers: {} as Handlers, onEvent: () => () => {} })).rejects.toThrow(/too long for a Unix socket/);
    } finally {
      await w.cleanup();
    }
  });

  it('on Windows the door is a named pipe derived from the data dir', () => {
    expect(socketPath('C:\\Users\\u\\AppData\\Roaming\\NEXUS', 'win32')).toMatch(/^\\\\\.\\pipe\\nexus-[0-9a-f]{24}$/);
    expect(socketPath('/d', 'linux')).toBe('/d/nexus.sock');
  });
});
