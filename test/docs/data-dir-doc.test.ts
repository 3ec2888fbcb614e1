// docs/data-dir.md against a real kernel: the files the layout table lists are the ones a kernel makes, both
// backup recipes copy a running kernel's database into one that opens and holds its data, and the
// troubleshooting messages are the ones NEXUS prints.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNexus, type Nexus } from '../../electron/app.js';
import { startSocketDoor, type SocketDoor, SOCKET_FILE } from '../../electron/doors/socket.js';
import { LOCK_FILE, acquireLock } from '../../electron/store/lock.js';
import { NoKernelError } from '../../electron/cli/client.js';
import { main } from '../../electron/cli/main.js';
import { bodyRows, fences, readDoc, ROOT, sections, unquote } from '../support/docs-markdown.js';
import { world } from '../support/world.js';

const page = readDoc('data-dir.md');
const section = (t: string) => sections(page, 2).find((s) => s.title === t)!.body;
const w = world();
let dir: string;
let dataDir: string;
let nexus: Nexus;
let door: SocketDoor;

beforeAll(async () => {
  dir = w.dir('datadir-doc');
  dataDir = join(dir, 'data');
  nexus = await createNexus({ dataDir });
  w.defer(() => nexus.close());
  door = await startSocketDoor(nexus);
  w.defer(() => door.close());
  let out = '';
  const f = join(dir, 'agent.json');
  writeFileSync(
    f,
    JSON.stringify({
      name: 'kept',
      model: { provider: 'chat-completions', baseURL: 'http://127.0.0.1:9/v1', model: 'm' },
      mode: 'ask',
      workspace: join(dir, 'ws'),
    }),
  );
  expect(await main(['agents', 'add', f, '--data-dir', dataDir], { out: (t) => (out += t), err: (t) => (out += t) }), out).toBe(0);
});
afterAll(() => w.cleanup());

const agentsIn = (file: string) => {
  const db = new Database(file, { readonly: true });
  try {
    return (db.prepare('SELECT name FROM agents').all() as { name: string }[]).map((r) => r.name);
  } finally {
    db.close();
  }
};

describe('docs/data-dir.md', () => {
  it('the layout names the files a running kernel keeps', () => {
    const rows = bodyRows(section('Layout')).filter((r) => !r[1].includes('(being added)'));
    const names = rows.flatMap((r) => r[0].split(', ').map(unquote));
    for (const f of ['nexus.db', 'nexus.db-wal', LOCK_FILE, SOCKET_FILE]) {
      expect(names).toContain(f);
      expect(existsSync(join(dataDir, f)), f).toBe(true);
    }
    expect(names).toContain('keys.json');
    expect(readFileSync(join(ROOT, 'electron', 'shell', 'key-file.ts'), 'utf8')).toContain("join(dataDir, 'keys.json')");
  });
  it('the sqlite3 .backup recipe, as written, while the kernel runs', () => {
    const line = fences(section('Backup'))
      .find((f) => f.lang === 'sh')!
      .body.trim();
    const cmd = line.replace('~/.config/NEXUS/nexus.db', join(dataDir, 'nexus.db'));
    execFileSync('bash', ['-c', cmd], { cwd: dir });
    expect(agentsIn(join(dir, 'nexus-backup.db'))).toEqual(['kept']);
  });
  it('the better-sqlite3 db.backup script, as written, while the kernel runs', () => {
    const script = fences(section('Backup')).find((f) => f.lang === 'js')!.body;
    writeFileSync(join(dir, 'backup.mjs'), script);
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
    execFileSync(process.execPath, ['backup.mjs', join(dataDir, 'nexus.db'), 'node-backup.db'], { cwd: dir });
    expect(agentsIn(join(dir, 'node-backup.db'))).toEqual(['kept']);
  });
  it('troubleshooting: the messages are the ones NEXUS prints', async () => {
    const text = section('Troubleshooting');
    // a busy port, through `nexus serve` itself (on another data dir: this one is taken)
    const busy = createServer();
    await new Promise<void>((r) => busy.listen(0, '127.0.0.1', r));
    const port = (busy.address() as { port: number }).port;
    let err = '';
    const code = await main(['serve', '--port', String(port), '--data-dir', join(dir, 'other')], { out: () => {}, err: (t) => (err += t) });
    busy.close();
    expect(code).toBe(1);
    expect(text).toContain(`\`${err.trim().replace(String(port), '8080')}\``);
    // the lock
    let lock = '';
    try {
      acquireLock(dataDir);
    } catch (e) {
      lock = (e as Error).message;
    }
    expect(lock.replace(/pid \d+/, 'pid N').replace(dataDir, 'DIR')).toContain('Another NEXUS kernel (pid N) is already running on the data dir DIR');
    expect(text).toContain('Another NEXUS kernel (pid N) is already running on the data dir DIR');
    expect(new NoKernelError('DIR').message).toContain('No NEXUS kernel is running for the data dir DIR');
    expect(text).toContain('No NEXUS kernel is running for the data dir DIR');
    const notBuilt = /`(nexus: not built yet\.[^|]*?first\.)`/.exec(text.replace(/\\`/g, '`'))![1];
    expect(readFileSync(join(ROOT, 'bin', 'nexus.cjs'), 'utf8')).toContain(notBuilt);
  });
});
