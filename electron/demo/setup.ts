// The offline demo, offered on first run. A newcomer with no model sees what NEXUS does within a minute:
// two demo agents on a scripted local model (demo-model.ts: NOT an AI, and labelled so) run a chain through
// the REAL kernel, approval stage and orchestration gate.
//
// Honesty: the demo never fakes the entitlement and changes no setting. The entitlement comes from the
// account (DESIGN §3); a demo that minted one — or switched orchestration on behind the person's back —
// would teach the wrong lesson about the two keys. So the chain meets the gate exactly as it is configured:
// on a fresh install hop 2 is DENIED with orchestration_not_entitled (and Recent chains shows it, with the
// sentence that says how to fix it); with the entitlement, the switch on and demo-planner allowlisted, hop 2
// is held for approval (an orchestration card), then parks at demo-builder's own ask mode (an autonomy card).
// demoStart tells the window which of these will happen before it does.
import type { InputOf, MethodName, Methods, OutputOf } from '../../shared/api/index.js';
import { startDemoModel, DEMO_BUILDER, DEMO_PLANNER, DEMO_MODEL_PREFIX, type DemoModel } from './demo-model.js';

const INSTRUCTIONS = 'You are part of the NEXUS offline demo. If a tool call is denied, report the reason instead of retrying.';

/** The API as NEXUS itself calls it: validated like any door's call (door `internal`); a failure throws. */
export type InternalCall = <K extends MethodName>(name: K, input: InputOf<Methods[K]>) => Promise<OutputOf<Methods[K]>>;

/** What the demo is handed by electron/app.ts: the API (it acts as a person would) and where to register cleanups. */
export interface DemoPorts {
  call: InternalCall;
  onClose(fn: () => void | Promise<void>): void;
}

export interface Demo {
  /** demoStart: saves the demo agents on the demo model and starts demo-planner's turn. */
  start(): Promise<OutputOf<Methods['demoStart']>>;
}

export function expectation(gate: { entitled: boolean; enabled: boolean; allowlisted: boolean; per_hop_approval: boolean; stop_all: boolean }): string {
  const first = `First, ${DEMO_PLANNER} asks to hand a task to ${DEMO_BUILDER}: its ask mode parks that call, so an Autonomy card appears in the Inbox. Approve it.`;
  const hop2 = `Then ${DEMO_BUILDER} tries to write hello.md: that is hop 2 of the chain, and the orchestration gate decides it.`;
  let then: string;
  if (gate.stop_all) then = 'Stop all is engaged, so hop 2 will be denied (orchestration_stopped). Press Resume to lift it.';
  else if (!gate.entitled)
    then =
      'Your account has no nexus.orchestration entitlement, so hop 2 will be DENIED with orchestration_not_entitled. The demo does not pretend otherwise: read the denial in Chains (top bar).';
  else if (!gate.enabled)
    then =
      'Cross-Agent Orchestration is switched off, so hop 2 will be denied (orchestration_disabled). Switch it on and add demo-planner to the allowlist to see a hold instead.';
  else if (!gate.allowlisted)
    then = `${DEMO_PLANNER} is not on the Orchestrators allowlist, so hop 2 will be denied (orchestrator_not_allowed). Add it to see a hold instead.`;
  else if (gate.per_hop_approval)
    then = `Per-hop approval is on, so hop 2 will be HELD: an Orchestration card appears. Approve it, and ${DEMO_BUILDER}'s own ask mode then parks the write: an Autonomy card with the diff.`;
  else
    then = `Per-hop approval is off, so hop 2 is allowed by orchestration; ${DEMO_BUILDER}'s own ask mode still parks the write: an Autonomy card with the diff.`;
  // When hop 2 is denied, hello.md is never written, so the task's acceptance check fails and the task fails
  // visibly: say so, or the red Needs attention card at the end looks like the demo broke.
  const denied = gate.stop_all || !gate.entitled || !gate.enabled || !gate.allowlisted;
  const end = denied
    ? ` Because hello.md is never written, the task's acceptance check (test -s hello.md) fails and the task fails: a Needs attention card appears. That is the evidence gate working; press Dismiss on it and the demo ends with nothing left waiting.`
    : '';
  return `${first} ${hop2} ${then}${end}`;
}

export function createDemo({ call, onClose }: DemoPorts): Demo {
  let model: DemoModel | null = null;
  let starting: Promise<DemoModel> | null = null;
  let closed = false;
  const ensureModel = () => (starting ??= startDemoModel().then((m) => (model = m)));
  onClose(async () => {
    closed = true;
    await model?.close();
  });

  const saveAgents = async (baseURL: string) => {
    for (const [name, role] of [
      [DEMO_PLANNER, 'planner'],
      [DEMO_BUILDER, 'builder'],
    ] as const) {
      await call('agentsSave', {
        name,
        mode: 'ask',
        instructions: INSTRUCTIONS,
        model: { provider: 'chat-completions', baseURL, model: `${DEMO_MODEL_PREFIX}-${role}` },
      });
    }
  };

  // The demo model's port changes every launch: demo agents saved earlier get the new address.
  setImmediate(async () => {
    try {
      if (closed) return;
      const agents = await call('agentsList', {});
      if (!agents.some((a) => a.status === 'active' && a.model.model.startsWith(DEMO_MODEL_PREFIX))) return;
      const m = await ensureModel();
      if (!closed) await saveAgents(m.baseURL);
    } catch {
      /* the demo is optional: a failure here never stops the app */
    }
  });

  const start: Demo['start'] = async () => {
    const m = await ensureModel();
    await saveAgents(m.baseURL);
    const settings = await call('settingsGet', {});
    const entitlement = await call('entitlementsShow', {});
    const gate = {
      entitled: entitlement.entitled,
      enabled: settings['orchestration.enabled'] === true,
      allowlisted: (settings['orchestration.allowlist'] as string[]).includes(DEMO_PLANNER),
      per_hop_approval: settings['orchestration.perHopApproval'] === true,
      stop_all: settings['orchestration.stopAll'] === true,
    };
    const run = await call('runsStart', { agent: DEMO_PLANNER, prompt: 'Demo: get hello.md written by demo-builder, then tell me what happened.' });
    return { run_id: run.id, agents: [DEMO_PLANNER, DEMO_BUILDER], gate, expect: expectation(gate) };
  };
  return { start };
}
