// Naming a control-socket peer (ss + /proc) and the peer check's rules, on real sockets and real processes.
import { afterEach, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { createConnection, createServer, type Socket } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { hookProcesses, namePeer, peerInodeOf } from './peer.js';
import { PeerCheck, proc } from './peer-check.js';
import { world } from '../../test/support/world.js';

const linux = process.platform === 'linux';
const P = '/tmp/a b/nexus.sock';

describe('the peer inode from ss', () => {
  it('is read from the one line of our path and inode whose peer is unbound', () => {
    expect(peerInodeOf(`u_str ESTAB 0      0      ${P} 1056717 * 1056716\n`, P, '1056717')).toBe('1056716');
  });
  it('is not named when the peer bound a name (it could forge a line), or when two lines match', () => {
    expect(peerInodeOf(`u_str ESTAB 0 0 ${P} 11 /tmp/x 22 * 33`, P, '11')).toBeNull();
    expect(peerInodeOf(`u_str ESTAB 0 0 ${P} 11 * 22\nu_str ESTAB 0 0 ${P} 11 * 23`, P, '11')).toBeNull();
    expect(peerInodeOf(`u_str ESTAB 0 0 ${P}x 11 * 22`, P, '11')).toBeNull();
  });
});

let w = world();
const kids: ChildProcess[] = [];
afterEach(async () => {
  for (const k of kids.splice(0)) {
    try {
      process.kill(-k.pid!, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
  await w.cleanup();
  w = world();
});
const until = async (f: () => boolean) => {
  for (let i = 0; i < 500 && !f(); i++) await new Promise((r) => setTimeout(r, 10));
};

describe.runIf(linux)('naming a real peer', () => {
  it('names this process as the holder of a connection it made, once per connection, in a few ms', async () => {
    const path = join(w.dir('peer'), 's.sock');
    const accepted = new Promise<Socket>((resolve) => {
      const srv = createServer((c) => resolve(c));
      srv.listen(path);
      setTimeout(() => srv.close(), 5000).unref();
    });
    const client = createConnection(path);
    const conn = await accepted;
    const t0 = performance.now();
    const name = await namePeer(conn, path);
    const ms = performance.now() - t0;
    console.log(`named the peer in ${ms.toFixed(1)} ms`);
    expect(name).toEqual({ kind: 'named', pids: [process.pid] });
    client.destroy();
    conn.destroy();
  });
  it('elsewhere than Linux the check does not apply', async () => {
    const s = createConnection('/nonexistent').on('error', () => undefined);
    expect(await namePeer(s, '/x', { platform: 'darwin' })).toMatchObject({ kind: 'unsupported' });
    expect(new PeerCheck(() => []).refusal({ kind: 'unsupported', why: 'x' })).toBeNull();
  });
});

describe.runIf(linux)('the peer check', () => {
  it('refuses an unnamed peer with peer_unnamed', () => {
    expect(new PeerCheck(() => []).refusal({ kind: 'unnamed', why: 'no holder' })).toMatchObject({ code: 'peer_unnamed', message: /no holder/ });
  });
  it("refuses a process in a recorded agent group, even one that is not the leader's child", async () => {
    const leader = spawn('/bin/sh', ['-c', 'sleep 30 & wait'], { detached: true, stdio: 'ignore' });
    kids.push(leader);
    await until(() => !!proc(leader.pid!));
    const start = proc(leader.pid!)!.start;
    const check = new PeerCheck(() => [{ pgid: leader.pid!, start_time: start }]);
    expect(check.refusal({ kind: 'named', pids: [leader.pid!] })).toMatchObject({ code: 'peer_refused', message: /an agent's command started/ });
    expect(check.refusal({ kind: 'named', pids: [process.pid] })).toBeNull();
  });
  it("records the hook's client above its shell, refuses its descendants, never records the kernel or its ancestors", async () => {
    // client (node) → sh -c → hook stand-in (sleep); and the client's other child, a shell tool's command.
    const client = spawn(
      process.execPath,
      [
        '-e',
        "const {spawn}=require('child_process');spawn('/bin/sh',['-c','sleep 30; true'],{stdio:'inherit'});spawn('sleep',['31'],{stdio:'inherit'});setTimeout(()=>{},30000)",
      ],
      {
        detached: true,
        stdio: 'ignore',
      },
    );
    kids.push(client);
    // Wait for the tree as it will be, not as it is being made: a forked child is `node` until it execs, and the
    // shell forks its `sleep` a moment after it starts. Told apart by what they run, not by pid order.
    const childrenOf = (pid: number) => {
      try {
        return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
      } catch {
        return [];
      }
    };
    const children = () => childrenOf(client.pid!);
    const kid = (comm: string) => children().find((p) => proc(p)?.comm === comm);
    const hookOf = (sh: number) => childrenOf(sh).find((p) => proc(p)?.comm === 'sleep');
    await until(() => {
      const sh = kid('sh');
      return !!sh && !!kid('sleep') && !!hookOf(sh);
    });
    const sh = kid('sh')!;
    const tool = kid('sleep');
    const hookSleep = hookOf(sh)!;
    expect(tool, 'the client started its tool').toBeDefined();
    expect(hookSleep, 'the shell started its hook').toBeDefined();
    const check = new PeerCheck(() => []);
    expect(check.noteHook({ kind: 'named', pids: [hookSleep] }, 'claude-code')).toBe(client.pid);
    expect(check.refusal({ kind: 'named', pids: [tool!] })).toMatchObject({ code: 'peer_refused', message: /connected client \(claude-code, pid \d+\)/ });
    expect(check.refusal({ kind: 'named', pids: [process.pid] })).toBeNull();
    // A "hook" that is this process: its parent is an ancestor of the kernel, never recorded.
    expect(check.noteHook({ kind: 'named', pids: [process.pid] }, 'claude-code')).toBeNull();
    process.kill(-client.pid!, 'SIGKILL');
    await until(() => !proc(client.pid!));
    expect(check.clientPids()).toEqual([]);
  });
  it('a hook below an interactive shell (a person running it by hand) records nobody', async () => {
    const shell = spawn('/bin/sh', ['-s'], { detached: true, stdio: ['pipe', 'ignore', 'ignore'] });
    kids.push(shell);
    shell.stdin!.write('sleep 30\n');
    const kid = () => readFileSync(`/proc/${shell.pid}/task/${shell.pid}/children`, 'utf8').trim();
    await until(() => !!kid());
    expect(new PeerCheck(() => []).noteHook({ kind: 'named', pids: [Number(kid().split(/\s+/)[0])] }, 'claude-code')).toBeNull();
  });
  it("finds the running hooks by their script's name", async () => {
    const hook = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)', '/opt/nexus/dist/hook/nexus-hook.mjs'], { detached: true, stdio: 'ignore' });
    kids.push(hook);
    await until(() => !!proc(hook.pid!));
    const found = hookProcesses();
    expect(found.kind).toBe('named');
    expect(found.kind === 'named' && found.pids).toContain(hook.pid);
  });
});
