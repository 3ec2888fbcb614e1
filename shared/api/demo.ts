// The offline demo (first run): a scripted two-agent chain through the real kernel and gate. Owned by WINDOW.
import { z } from 'zod';
import { method, strict } from './contract.js';
import { Id } from './common.js';

export const DemoGate = strict({
  entitled: z.boolean(),
  enabled: z.boolean(),
  allowlisted: z.boolean(),
  per_hop_approval: z.boolean(),
  stop_all: z.boolean(),
});

export const demoMethods = {
  demoStart: method(
    strict({}).default({}),
    strict({ run_id: Id, agents: z.array(z.string()), gate: DemoGate, expect: z.string() }),
    'Play the offline demo: two demo agents on a scripted local model (not an AI) run a chain through the real approval stage and orchestration gate. Changes no setting.',
  ),
};
