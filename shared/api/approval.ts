// The schemas of what governs a run: approval rules, lifecycle hooks, and the effect profile a card shows.
// Rules are checked by the rule language's own validator (shared/rules/validate.ts), hooks by one schema that
// the kernel's validateHooks uses too: one source of truth, each problem reported at its path. Pure: no I/O.
import { z } from 'zod';
import { detailPath, domainSchema, strict, type ErrorDetail } from './contract.js';
import { validateRules, type RuleError } from '../rules/validate.js';
import { MODES, ORIGINS, VERDICTS, type ApprovalRule, type LifecycleHooks } from '../types.js';

/** A rule as stored and listed: already validated, only the six keys. */
export const ApprovalRuleView = strict({
  tool: z.string(),
  verdict: z.enum(VERDICTS),
  path: z.string().optional(),
  match: z.string().optional(),
  reason: z.string().optional(),
  origin: z.enum(ORIGINS).optional(),
}) satisfies z.ZodType<ApprovalRule>;

/** Where a rule error points, under the field holding the list: `[2, 'verdict']`, `[2]`, or the list itself. */
export const ruleErrorPath = (e: RuleError): Array<string | number> => (e.index === null ? [] : e.key === undefined ? [e.index] : [e.index, e.key]);

/** Rule errors as API details under `field` (`approval_rules.2.verdict`). */
export const ruleErrorDetails = (field: string, errors: readonly RuleError[]): ErrorDetail[] =>
  errors.map((e) => ({ path: detailPath([field, ...ruleErrorPath(e)]), message: e.message }));

/**
 * An approval_rules list as a caller sends it: any JSON (a file, an editor's text), checked by validateRules.
 * Valid, it becomes the clean rule list; invalid, every error is an `invalid_rules` issue at its rule and key,
 * and the one-line message reads `<lead>: rule 0: …; rule 2: …` as the kernel has always worded it.
 */
export const approvalRules = (lead: string) =>
  z.unknown().transform((value, ctx): ApprovalRule[] => {
    const v = validateRules(value);
    if (v.ok) return v.rules;
    for (const e of v.errors) ctx.addIssue({ code: 'custom', path: ruleErrorPath(e), message: e.message, params: { code: 'invalid_rules', lead } });
    return z.NEVER;
  });

export const HOOK_EVENTS = ['turn_start', 'pre_compact', 'post_compact', 'stop'] as const;

/** One hook: a tool the kernel runs at a lifecycle event (a key other than these three is refused). */
export const HookSpec = strict(
  {
    tool: z.string({ error: 'a hook names a tool' }).min(1, 'a hook names a tool'),
    input: z.record(z.string(), z.unknown(), { error: "must be an object (the tool's input)" }).default({}),
    timeout_s: z.number({ error: 'must be a positive number of seconds' }).positive('must be a positive number of seconds').optional(),
  },
  { error: 'a hook is an object like {"tool": "bash", "input": {"command": "…"}}' },
);
const hookList = z.array(HookSpec, { error: 'must be a list of hooks' }).optional();

/** lifecycle_hooks as declared: null or absent is none; an unknown event is refused, never ignored. */
const LifecycleHooksShape = z
  .strictObject(
    { turn_start: hookList, pre_compact: hookList, post_compact: hookList, stop: hookList },
    {
      error: (iss) =>
        iss.code === 'unrecognized_keys'
          ? `unknown event${iss.keys.length > 1 ? 's' : ''} ${iss.keys.map((k) => JSON.stringify(k)).join(', ')} (one of ${HOOK_EVENTS.join(', ')})`
          : `must be an object of ${HOOK_EVENTS.join(', ')}`,
    },
  )
  .nullish()
  .transform((h): LifecycleHooks => {
    const out: LifecycleHooks = {};
    for (const e of HOOK_EVENTS) if (h?.[e]) out[e] = h[e];
    return out;
  });

/** The schema the API and the kernel's validateHooks share: every problem an `invalid_hooks` issue at its path. */
export const LifecycleHooksInput = domainSchema(LifecycleHooksShape, { code: 'invalid_hooks' });

/** Hooks as stored and listed. */
export const LifecycleHooksView = strict({
  turn_start: z.array(HookSpec).optional(),
  pre_compact: z.array(HookSpec).optional(),
  post_compact: z.array(HookSpec).optional(),
  stop: z.array(HookSpec).optional(),
});

/**
 * What the approver reads on a card: frozen on the row when it parked (shared/types.ts EffectProfile). An
 * orchestration hold's card has one too, but no mode (orchestration asks, not the agent's own mode) and, when
 * the hold is not a held call, no workspace: both are optional here, as they are on the wire.
 */
export const EffectProfileView = strict({
  agent: z.string().nullable(),
  tool: z.string(),
  runner: z.string().optional(),
  target: z.string(),
  input: z.unknown(),
  diff: z.string().optional(),
  matched_rules: z.array(ApprovalRuleView),
  workspace: z.string().optional(),
  mode: z.enum(MODES).optional(),
  sandboxed: z.boolean().optional(),
  client: strict({ name: z.string(), session_id: z.string(), folder: z.string(), tool_name: z.string() }).optional(),
});
