// The composition root: `createNexus({ dataDir })` opens the store, builds the kernel, lets every module set
// itself up, builds the one handler table, then runs crash recovery and starts the kernel.
//
// HOW LATER MODULES PLUG IN (turns, runners, governance, ...):
//   1. Export `setupX(nexus: Nexus): void | Promise<void>` from your module. In it: register tools
//      (nexus.kernel.registerTool), the hop gate (nexus.kernel.setHopGate), inbox kinds
//      (nexus.kernel.inbox.register), event listeners (nexus.kernel.on), probes (nexus.probes.stopAll),
//      handlers (Object.assign(nexus.handlers, {...})), services other modules use (nexus.services.x = ...),
//      and cleanups (nexus.onClose(fn), run in reverse order before the kernel closes).
//   2. Add ONE line to SETUPS below. Setups run in the listed order, after the kernel exists and BEFORE
//      kernel.start(), so their listeners, tools and gates are in place when recovery expires or interrupts
//      rows.
import { mkdirSync } from 'node:fs';
import { canonicalDataDir } from './cli/data-dir.js';
import { workspacesRoot } from './kernel/workspaces-root.js';
import { join, resolve } from 'node:path';
import { openDatabase, type Db } from './store/db.js';
import { acquireLock } from './store/lock.js';
import { precreatePrivate, tightenDataDir } from './store/data-dir-perms.js';
import type { SecretCipher } from './store/secrets.js';
import { moveClearSecretsOutOfDb } from './kernel/secret-migration.js';
import { Kernel, type RecoveryReport } from './kernel/kernel.js';
import { EventBus } from './kernel/events.js';
import { systemClock, type Clock } from './kernel/clock.js';
import { buildHandlers } from './api/index.js';
import type { Handlers } from './api/dispatch.js';
import type { ApiHost } from './doors/host.js';
import type { NexusEvent } from '../shared/api/index.js';
import type { WaitingOn } from './governance/hold-clock.js';

export type NexusSetup = (nexus: Nexus) => void | Promise<void>;

const SETUPS: Array<() => Promise<NexusSetup>> = [
  async () => (await import('./kernel/turns/setup.js')).setupTurns,
  async () => (await import('./governance/setup.js')).setupGovernance,
  async () => (await import('./demo/setup.js')).setupDemo,
  async () => (await import('./external/setup.js')).setupExternal,
];

/** Services modules publish for each other (augment with `declare module` for types). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface NexusServices {}

export interface Nexus extends ApiHost {
  dataDir: string;
  db: Db;
  kernel: Kernel;
  events: EventBus;
  clock: Clock;
  env: NodeJS.ProcessEnv;
  handlers: Partial<Handlers>;
  services: NexusServices & Record<string, unknown>;
  /** Small read-only answers other modules own (status shows them). */
  probes: { stopAll: () => boolean; waitingOn?: () => Map<string, WaitingOn[]> };
  recovery: RecoveryReport;
  onEvent(listener: (event: NexusEvent) => void): () => void;
  onClose(fn: () => void | Promise<void>): void;
  close(): Promise<void>;
}

export interface CreateNexusOptions {
  dataDir: string;
  clock?: Clock;
  env?: NodeJS.ProcessEnv;
  /** Replaces the registered SETUPS (tests: `[]` for a bare kernel). */
  setups?: NexusSetup[];
  /** Take the data dir's single-kernel lock (default true). */
  lock?: boolean;
  /**
   * Where agents' default workspaces are made: this, else NEXUS_WORKSPACES_DIR, else `<dataDir>-workspaces`
   * (a sibling of the data dir: never inside it, where the database and the control socket live).
   */
  workspacesDir?: string;
  /** The desktop app's OS keychain: encrypts MCP secrets at rest (headless: a 0600 file in clear). */
  secretCipher?: SecretCipher;
  /** Start-up warnings (loose permissions, secrets moved); default stderr. */
  warn?: (line: string) => void;
}

export async function createNexus(opts: CreateNexusOptions): Promise<Nexus> {
  mkdirSync(opts.dataDir, { recursive: true, mode: 0o700 });
  const dataDir = canonicalDataDir(opts.dataDir); // the same spelling the `nexus` command derives the socket from
  const warn = opts.warn ?? ((line: string) => console.error(line));
  for (const w of tightenDataDir(dataDir)) warn(`nexus: warning: ${w} (only you may read NEXUS's data)`);
  const release = opts.lock === false ? () => {} : acquireLock(dataDir);
  let db: Db;
  try {
    precreatePrivate(join(dataDir, 'nexus.db'));
    db = openDatabase(join(dataDir, 'nexus.db'));
    tightenDataDir(dataDir); // what opening created (-wal, -shm) is private too; nothing was looser to report
  } catch (e) {
    release();
    throw e;
  }
  const events = new EventBus();
  const clock = opts.clock ?? systemClock;
  const env = opts.env ?? process.env;
  const workspacesDir = resolve(opts.workspacesDir ?? env.NEXUS_WORKSPACES_DIR ?? workspacesRoot(dataDir));
  const kernel = new Kernel({ db, dataDir, workspacesDir, clock, events, secretCipher: opts.secretCipher });
  try {
    const moved = moveClearSecretsOutOfDb(kernel);
    if (moved.length) warn(`nexus: moved the MCP secrets of ${moved.join(', ')} out of the database into ${kernel.secrets.path}`);
  } catch (e) {
    db.close();
    release();
    throw e;
  }
  const closers: Array<() => void | Promise<void>> = [];
  let closing: Promise<void> | null = null;
  const nexus: Nexus = {
    dataDir,
    db,
    kernel,
    events,
    clock,
    env,
    handlers: {},
    services: {},
    probes: { stopAll: () => false },
    recovery: { interrupted: [], expired: [], parked: [], killed: [] },
    onEvent: (listener) => events.on(listener),
    onClose: (fn) => void closers.push(fn),
    close: () =>
      (closing ??= (async () => {
        for (const fn of closers.reverse()) {
          try {
            await fn();
          } catch (e) {
            console.error('nexus: a close hook failed:', e);
          }
        }
        await kernel.close();
        db.close();
        release();
      })()),
  };
  try {
    const setups = opts.setups ?? (await Promise.all(SETUPS.map((load) => load())));
    for (const setup of setups) await setup(nexus);
    Object.assign(nexus.handlers, { ...buildHandlers(nexus), ...nexus.handlers });
    nexus.recovery = kernel.start();
  } catch (e) {
    await nexus.close();
    throw e;
  }
  return nexus;
}
