// The one handler table the doors dispatch to: every area's handlers (a module that was not built answers
// not_available), behind the guards every call passes: the desk's answers, what the desk holds, Stop all.
// electron/app.ts builds it once the modules are constructed.
import { ApiFailure, type Handlers } from './dispatch.js';
import { rulesHandlers } from './rules-handlers.js';
import { kernelHandlers, type KernelApiPorts } from './kernel-handlers.js';
import { agentsHandlers, TURNS_METHODS } from './agents-handlers.js';
import { orchestrationHandlers, GOVERNANCE_METHODS } from './orchestration-handlers.js';
import { modelsHandlers } from './models-handlers.js';
import { deskHandlers } from './desk-handlers.js';
import { unavailable } from './unavailable.js';
import { withDeskAnswers } from './desk-answers.js';
import { refuseWhatTheDeskHolds } from './desk-policy-guard.js';
import { refuseWhileStopped } from './stop-all-guard.js';
import type { TurnEngine } from '../agents/engine.js';
import type { Governance } from '../governance/service.js';
import type { Demo } from '../demo/setup.js';
import type { DeskSeat } from '../desk/seat.js';
import type { KeyStore } from '../providers/keys.js';
import { methodNames } from '../../shared/api/contract.js';
import { keysMethods } from '../../shared/api/keys.js';
import type { externalMethods } from '../../shared/api/external.js';

export const KEYS_METHODS = methodNames(keysMethods);
export type KeysMethods = (typeof KEYS_METHODS)[number];
type ExternalMethods = keyof typeof externalMethods & string;

const NO_KEYCHAIN =
  'This NEXUS runs without the desktop app, so there is no keychain: an agent reads its provider key from the environment variable its profile names.';

/** The sentence a method of a module not built answers with. */
export const notBuilt = (what: string) => `${what} are not available in this build of NEXUS.`;

/** What the table is built from; a module is null when this NEXUS was built without it. */
export interface HandlerTablePorts extends KernelApiPorts {
  turns: TurnEngine | null;
  governance: Governance | null;
  demo: Demo | null;
  seat: DeskSeat;
  keyStore: KeyStore;
  /** Connected clients' handlers, or their refusals: that module sits above the API, so app.ts resolves them. */
  external: Pick<Handlers, ExternalMethods>;
  /** The desktop app's keysStatus / keysSet; `exists` says whether an agent of that name exists. */
  keys: ((exists: (agent: string) => Promise<boolean>) => Pick<Handlers, KeysMethods>) | null;
}

export function handlerTable(p: HandlerTablePorts): Handlers {
  const { db, seat, turns, governance, demo, keys, stopAll } = p;
  const exists = (agent: string): Promise<boolean> =>
    Promise.resolve()
      .then(() => handlers.agentsGet({ name: agent }, { door: 'internal' }))
      .then(
        (a) => Boolean(a),
        () => false,
      );
  const handlers = refuseWhileStopped(
    refuseWhatTheDeskHolds(
      withDeskAnswers(
        {
          ...rulesHandlers,
          ...kernelHandlers({ dataDir: p.dataDir, db, kernel: p.kernel, clock: p.clock, stopAll, waitingOn: p.waitingOn }),
          ...(turns ? agentsHandlers(turns) : unavailable(TURNS_METHODS, 'not_available', notBuilt('Agent turns'))),
          ...(governance
            ? orchestrationHandlers(governance)
            : unavailable(GOVERNANCE_METHODS, 'not_available', notBuilt('Orchestration governance and its settings'))),
          ...modelsHandlers({ keyStore: p.keyStore }),
          ...deskHandlers(seat),
          demoStart: demo ? () => demo.start() : unavailable(['demoStart'], 'not_available', notBuilt('The offline demo')).demoStart,
          ...p.external,
          // The window reads not_implemented as "no keychain here" (it then names the environment variable).
          ...(keys ? keys(exists) : unavailable(KEYS_METHODS, 'not_implemented', NO_KEYCHAIN)),
          // withDeskAnswers serves it (it refuses without a desk).
          deskRecord: () => Promise.reject(new ApiFailure('not_available', 'not joined to a desk')),
        } satisfies Handlers,
        () => seat.desk,
        db,
      ),
      () => seat.desk,
    ),
    stopAll,
  );
  return handlers;
}
