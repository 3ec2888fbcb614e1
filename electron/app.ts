// The composition root: `createNexus({ dataDir })` opens the store, builds the kernel, then constructs each
// module explicitly and hands it the typed ports it declares: the turn engine (agents/setup.ts TurnsPorts),
// governance and delegation (governance/ports.ts), the offline demo (demo/setup.ts DemoPorts), connected clients
// (external/setup.ts ExternalPorts) and the API's handlers (api/). It builds the one handler table
// (api/handler-table.ts, which `satisfies Handlers`), then runs crash recovery and starts the kernel.
//
// ADDING A MODULE: construct it in createNexus after what it needs, hand it what it needs as typed values (an
// interface the module declares), and add its handlers to the table (api/handler-table.ts): until every method
// of the contract has a handler, the type check fails. Modules are constructed BEFORE kernel.start(), so their
// listeners, tools and gates are in place when recovery expires or interrupts rows; what they do after recovery
// they schedule with setImmediate. Cleanups go to onClose (run in reverse order before the kernel closes).
import { mkdirSync } from 'node:fs';
import { canonicalDataDir } from './store/data-dir.js';
import { workspacesRoot } from './kernel/workspaces-root.js';
import { join, resolve } from 'node:path';
import { openDatabase, type Db } from './store/db.js';
import { acquireLock } from './store/lock.js';
import { listProcesses } from './store/queries/processes.js';
import { precreatePrivate, tightenDataDir } from './store/data-dir-perms.js';
import type { SecretCipher } from './store/secrets.js';
import { moveClearSecretsOutOfDb } from './kernel/secret-migration.js';
import { Kernel, type RecoveryReport } from './kernel/kernel.js';
import { EventBus } from './kernel/events.js';
import { systemClock, type Clock } from './kernel/clock.js';
import { NO_KEYS, type KeyStore } from './providers/keys.js';
import { createTurns } from './agents/setup.js';
import { saveAgent } from './agents/profiles.js';
import type { TurnEngine } from './agents/engine.js';
import { readSetting } from './store/queries/settings.js';
import { createGovernance } from './governance/setup.js';
import type { Governance } from './governance/service.js';
import type { Delegation } from './governance/delegation.js';
import { createDemo, type Demo, type InternalCall } from './demo/setup.js';
import { createExternal, EXTERNAL_METHODS } from './external/setup.js';
import { installAcpAgents } from './external/acp/starter.js';
import { deskOptionsFromEnv } from './desk/setup.js';
import { DeskSeat } from './desk/seat.js';
import type { DeskClient, DeskOptions } from './desk/client.js';
import type { ExternalService } from './external/service.js';
import { ApiFailure, dispatch, handlerTable, notBuilt, unavailable, type Handlers, type KeysMethods } from './api/index.js';
import type { InputOf, MethodName, Methods, NexusEvent, OutputOf } from '../shared/api/index.js';
import { log } from './log.js';

/** The modules a NEXUS is built with: all of them, unless a test asks for fewer. */
export interface NexusModules {
  turns: boolean;
  governance: boolean;
  demo: boolean;
  external: boolean;
}
const ALL_MODULES: NexusModules = { turns: true, governance: true, demo: true, external: true };

/** Provider keys the desktop app keeps in the OS keychain (electron/shell/key-file.ts). Headless NEXUS has none. */
export interface KeysModule {
  store: KeyStore;
  /** keysStatus / keysSet over that store; `exists` says whether an agent of that name exists. */
  handlers(exists: (agent: string) => Promise<boolean>): Pick<Handlers, KeysMethods>;
}

export interface Nexus {
  dataDir: string;
  db: Db;
  kernel: Kernel;
  events: EventBus;
  clock: Clock;
  env: NodeJS.ProcessEnv;
  /** The one handler table: every method of the contract (shared/api) has its handler. */
  handlers: Handlers;
  /** The modules constructed; null only when a test built NEXUS without that module. */
  turns: TurnEngine | null;
  governance: Governance | null;
  delegation: Delegation | null;
  external: ExternalService | null;
  /** This machine's connection to a team desk (docs/desk.md); null without one (it changes on deskJoin / deskLeave). */
  readonly desk: DeskClient | null;
  recovery: RecoveryReport;
  onEvent(listener: (event: NexusEvent) => void): () => void;
  /** The process groups of agents' commands running now (bash rows, ACP agents): the socket door's peer check. */
  agentProcesses(): Array<{ pgid: number; start_time: string }>;
  onClose(fn: () => void | Promise<void>): void;
  close(): Promise<void>;
}

export interface CreateNexusOptions {
  dataDir: string;
  clock?: Clock;
  env?: NodeJS.ProcessEnv;
  /**
   * Which modules to build. Absent: all. Given: only those set to true (tests: `{}` for a bare kernel,
   * `{ turns: true }` for the turn engine alone). A method of a module not built answers `not_available`.
   */
  modules?: Partial<NexusModules>;
  /** Take the data dir's single-kernel lock (default true). */
  lock?: boolean;
  /**
   * Where agents' default workspaces are made: this, else NEXUS_WORKSPACES_DIR, else `<dataDir>-workspaces`
   * (a sibling of the data dir: never inside it, where the database and the control socket live).
   */
  workspacesDir?: string;
  /** The desktop app's OS keychain: encrypts MCP secrets at rest (headless: a 0600 file in clear). */
  secretCipher?: SecretCipher;
  /** The desktop app's provider keys, made for the canonical data dir (headless: none; keysStatus says so). */
  keys?: (dataDir: string) => KeysModule;
  /** Join a team desk (else NEXUS_DESK_URL / NEXUS_MACHINE; neither: no desk). */
  desk?: DeskOptions | null;
  /** Start-up warnings (loose permissions, secrets moved); default stderr. */
  warn?: (line: string) => void;
}

export async function createNexus(opts: CreateNexusOptions): Promise<Nexus> {
  mkdirSync(opts.dataDir, { recursive: true, mode: 0o700 });
  const dataDir = canonicalDataDir(opts.dataDir); // the same spelling the `nexus` command derives the socket from
  const warn = opts.warn ?? ((line: string) => log.warn(line.replace(/^nexus: /, '')));
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
    const moved = moveClearSecretsOutOfDb(db, kernel.secrets);
    if (moved.length) warn(`nexus: moved the MCP secrets of ${moved.join(', ')} out of the database into ${kernel.secrets.path}`);
  } catch (e) {
    db.close();
    release();
    throw e;
  }
  const closers: Array<() => void | Promise<void>> = [];
  const onClose = (fn: () => void | Promise<void>) => void closers.push(fn);
  let closing: Promise<void> | null = null;
  const close = () =>
    (closing ??= (async () => {
      for (const fn of closers.reverse()) {
        try {
          await fn();
        } catch (e) {
          log.error('a close hook failed', e);
        }
      }
      await kernel.close();
      db.close();
      release();
    })());

  try {
    const want: NexusModules = opts.modules ? { turns: false, governance: false, demo: false, external: false, ...opts.modules } : ALL_MODULES;
    const keys = opts.keys?.(dataDir) ?? null;
    const keyStore = keys?.store ?? NO_KEYS;

    const turns = want.turns ? createTurns({ kernel, db, env, keyStore, stopHookCap: () => readSetting(db, 'approval.stopHookCap'), onClose }) : null;
    const gov = want.governance ? await createGovernance({ db, kernel, clock, env, onClose, turns }) : null;
    const governance = gov?.governance ?? null;
    // What governance answers for the rest (false / nothing waits when it is not built).
    const stopAll = governance ? () => governance.stopAllInEffect() : () => false;
    const waitingOn = governance ? () => governance.waitingOn() : () => new Map();

    // The demo acts as a person would: through the API (validated like any door's call).
    const call: InternalCall = async <K extends MethodName>(name: K, input: InputOf<Methods[K]>) => {
      const r = await dispatch(handlers, name, input, { door: 'internal' });
      if (!r.ok) throw new ApiFailure(r.error.code, r.error.message);
      return r.value as OutputOf<Methods[K]>; // the handler's own output, typed by the contract
    };
    const demo: Demo | null = want.demo ? createDemo({ call, onClose }) : null;
    // The seat joins at start (flags, environment) or as Settings ▸ Desk saved it; deskJoin / deskLeave change it.
    const saveProfile = (p: Parameters<typeof saveAgent>[1]) => void saveAgent(kernel, p);
    const seat = new DeskSeat({ db, kernel, governance, saveProfile }, opts.desk !== undefined ? opts.desk : deskOptionsFromEnv(env));
    onClose(() => seat.close());
    const external = want.external ? createExternal({ db, kernel, clock, dataDir, env, stopAll, onClose }) : null;
    // ACP agents (profile `acp`) start through the turn engine's doors, run by the external module's client.
    if (turns && want.external) installAcpAgents(turns, kernel, (fn) => onClose(async () => void (await fn())));

    const handlers = handlerTable({
      dataDir,
      db,
      kernel,
      clock,
      stopAll,
      waitingOn,
      turns,
      governance,
      demo,
      seat,
      keyStore,
      external: external ? external.handlers : unavailable(EXTERNAL_METHODS, 'not_available', notBuilt('Connected clients')),
      keys: keys ? (exists) => keys.handlers(exists) : null,
    });

    const nexus: Nexus = {
      dataDir,
      db,
      kernel,
      events,
      clock,
      env,
      handlers,
      turns,
      governance,
      delegation: gov?.delegation ?? null,
      external: external?.service ?? null,
      get desk() {
        return seat.desk;
      },
      recovery: kernel.start(),
      onEvent: (listener) => events.on(listener),
      agentProcesses: () => listProcesses(db),
      onClose,
      close,
    };
    // After recovery, and after the caller's own set-up of this turn (its tools): an answer caught up at start
    // runs its row with every tool in place. What recovery changed reaches the desk through the outbox.
    setImmediate(() => seat.start());
    return nexus;
  } catch (e) {
    await close();
    throw e;
  }
}
