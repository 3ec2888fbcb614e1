// A NEXUS kernel in this process with its control socket open (the hook of a real client connects to it), plus
// small helpers the real-client tests share.
import { accessSync, constants, existsSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { createNexus, type Nexus } from '../../electron/app.js';
import { startSocketDoor, type SocketDoor } from '../../electron/doors/socket.js';
import { dispatch } from '../../electron/api/dispatch.js';
import type { ApprovalRule } from '../../shared/types.js';
import { removeDir, tempDir } from './world.js';

export { removeDir } from './world.js';

const writable = (dir: string) => {
  try {
    accessSync(dir, constants.W_OK);
    return true;
  } catch {
    return false;
  }
};
const ROOT = join(import.meta.dirname, '..', '..');
let built = false;
/** dist/ (the CLI and the hook) built once per test file. */
export function buildOnce(): void {
  if (built) return;
  // Run unprivileged over a checkout root built (setpriv in CI), dist/ cannot be written: the built one is used.
  if (!(existsSync(join(ROOT, 'dist', 'hook', 'nexus-hook.mjs')) && !writable(join(ROOT, 'dist'))))
    execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, stdio: 'pipe' });
  built = true;
}

export interface Kernel {
  nexus: Nexus;
  door: SocketDoor;
  dataDir: string;
  call<T = unknown>(method: string, input?: unknown): Promise<T>;
  /** Save the agent NEXUS will use for this client and project, with these rules. */
  agent(client: 'claude-code' | 'codex' | 'gemini' | 'opencode', project: string, rules: ApprovalRule[], mode?: 'ask' | 'rules' | 'bypass'): Promise<string>;
  /** Resolves with the first pending card (polls the inbox). */
  card(timeoutMs?: number): Promise<{ id: string; effect: Record<string, unknown>; tool: string; target: string; agent: string | null }>;
  /** Stop the kernel; its data dir stays (a test of a client whose NEXUS is down goes on against it). */
  stop(): Promise<void>;
  /** Stop it, and remove the data dir startKernel made (a dir handed in stays the caller's). */
  close(): Promise<void>;
}

/** A fresh temp data dir unless `given`; `close()` stops the kernel and removes the dir it made. */
export async function startKernel(given?: string): Promise<Kernel> {
  const dataDir = given ?? tempDir('ext');
  const nexus = await createNexus({ dataDir });
  const door = await startSocketDoor(nexus);
  let stopped = false;
  const k: Kernel = {
    nexus,
    door,
    dataDir: nexus.dataDir,
    async call(method, input) {
      const r = await dispatch(nexus.handlers, method, input ?? {}, { door: 'internal' });
      if (!r.ok) throw new Error(`${method}: ${r.error.code}: ${r.error.message}`);
      return r.value as never;
    },
    async agent(client, project, rules, mode = 'ask') {
      const { basename } = await import('node:path');
      const { realpathSync } = await import('node:fs');
      const name = `${client}-${basename(project)}`;
      await k.call('agentsSave', {
        name,
        mode,
        approval_rules: rules,
        model: { provider: 'anthropic', baseURL: 'http://127.0.0.1:9', model: 'connected client' },
        external: { client, project: realpathSync(project) },
      });
      return name;
    },
    async card(timeoutMs = 30_000) {
      const until = Date.now() + timeoutMs;
      while (Date.now() < until) {
        const list = await k.call<Array<{ id: string; effect: Record<string, unknown>; tool: string; target: string; agent: string | null }>>('inboxList');
        if (list.length) return list[0]!;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error('no card appeared');
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      await door.close();
      await nexus.close();
    },
    async close() {
      await k.stop();
      if (given === undefined) removeDir(dataDir);
    },
  };
  return k;
}
