// The one handler table (DESIGN §1): every module's handler object merged. Doors carry it via dispatch().
// Adding a module's handlers is ONE line in FACTORIES (or Object.assign(nexus.handlers, …) in its setup).
import type { Handlers } from './dispatch.js';
import type { Nexus } from '../app.js';
import { rulesHandlers } from './rules-handlers.js';
import { kernelHandlers } from './kernel-handlers.js';
import { agentsHandlers } from './agents-handlers.js';
import { orchestrationHandlers } from './orchestration-handlers.js';
import { modelsHandlers } from './models-handlers.js';

const FACTORIES: Array<(nexus: Nexus) => Partial<Handlers>> = [
  () => rulesHandlers,
  (nexus) => kernelHandlers(nexus),
  (nexus) => agentsHandlers(nexus),
  (nexus) => orchestrationHandlers(nexus),
  (nexus) => modelsHandlers(nexus),
];

export function buildHandlers(nexus: Nexus): Partial<Handlers> {
  return Object.assign({}, ...FACTORIES.map((f) => f(nexus))) as Partial<Handlers>;
}
