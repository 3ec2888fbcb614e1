// What governance is handed by electron/app.ts (which constructs it): the store, the kernel, the clock, the
// environment (the entitlement key, the account service), where to register its cleanups, and AGENTS' turns.
import type { Kernel } from '../kernel/kernel.js';
import type { Clock } from '../kernel/clock.js';
import type { Db } from '../store/db.js';
import type { TurnsPort } from './turns-port.js';

export interface GovernancePorts {
  db: Db;
  kernel: Kernel;
  clock: Clock;
  env: NodeJS.ProcessEnv;
  onClose(fn: () => void | Promise<void>): void;
  /** The turn engine; null in a NEXUS built without turns (delegation then answers "not available"). */
  turns: TurnsPort | null;
}
