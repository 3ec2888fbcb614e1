// Issue 25.9: while Stop all is engaged no new run starts — `nexus run` is refused with a sentence naming
// Resume — and after Resume it starts again. A real kernel behind the real control socket, `main(argv, io)`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createNexus, type Nexus } from '../app.js';
import { startSocketDoor, type SocketDoor } from '../doors/socket.js';
import { dispatch } from '../api/dispatch.js';
import { STOP_ALL_ENGAGED } from '../api/stop-all-guard.js';
import { main } from './main.js';
import { world } from '../../test/support/world.js';

const w = world();
let dir: string;
let nexus: Nexus;
let door: SocketDoor;

beforeAll(async () => {
  dir = w.dir('stopall');
  nexus = await createNexus({ dataDir: join(dir, 'data') });
  w.defer(() => nexus.close());
  door = await startSocketDoor(nexus);
  w.defer(() => door.close());
});
afterAll(() => w.cleanup());

async function nx(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main([...argv, '--data-dir', join(dir, 'data')], { out: (t) => (out += `${t}\n`), err: (t) => (err += `${t}\n`) });
  return { code, out, err };
}

describe('Stop all: no new run starts until Resume', () => {
  it('nexus run, runsCreate and demoStart are refused with a sentence naming Resume; Resume lifts it', async () => {
    const f = join(dir, 'a.json');
    writeFileSync(f, JSON.stringify({ name: 'a', model: { provider: 'chat-completions', baseURL: 'http://127.0.0.1:9/v1', model: 'm' }, mode: 'ask' }));
    expect((await nx('agents', 'add', f)).code).toBe(0);
    expect((await nx('stop-all')).code).toBe(0);
    const r = await nx('run', 'a', 'list the files');
    expect(r.code).not.toBe(0);
    expect(r.out + r.err).toContain(STOP_ALL_ENGAGED);
    expect(await dispatch(nexus.handlers, 'demoStart', {}, { door: 'socket' })).toMatchObject({
      ok: false,
      error: { code: 'stopped', message: STOP_ALL_ENGAGED },
    });
    expect((await nx('resume')).code).toBe(0);
    const again = await dispatch(nexus.handlers, 'runsStart', { agent: 'a', prompt: 'list the files' }, { door: 'socket' });
    expect(again.ok).toBe(true);
  });
});
