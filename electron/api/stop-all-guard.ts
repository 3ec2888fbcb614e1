// Stop all's one rule (issue 25.9, docs/orchestration-gate.md): while it is engaged no new run starts — a run,
// a created or appended run, the demo — runs in flight were stopped when it was pressed, and governed hops are
// denied. The refusal is a sentence naming Resume.
import { ApiFailure, type Handlers } from './dispatch.js';

export const STOP_ALL_ENGAGED = 'Stop all is engaged: no run starts until you press Resume (or run nexus resume).';

/** `handlers` with every method that starts a run refused while `stopped()`. */
export function refuseWhileStopped(h: Handlers, stopped: () => boolean): Handlers {
  const check = () => {
    if (stopped()) throw new ApiFailure('stopped', STOP_ALL_ENGAGED);
  };
  return {
    ...h,
    runsStart: (input, ctx) => (check(), h.runsStart(input, ctx)),
    runsCreate: (input, ctx) => (check(), h.runsCreate(input, ctx)),
    runsAppend: (input, ctx) => (check(), h.runsAppend(input, ctx)),
    demoStart: (input, ctx) => (check(), h.demoStart(input, ctx)),
  };
}
