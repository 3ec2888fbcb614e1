// Compiling a validated rule list ONCE, when it is declared (agent saved, run created): every glob compiled,
// every path split, every denial detail cut to 256 bytes. Evaluation then never parses anything. Pure.
import type { ApprovalRule, Origin, Verdict } from '../types.js';
import { ORIGINS } from '../types.js';
import { compileGlob, type CompiledGlob } from './glob.js';
import { splitPath } from './path.js';
import { cutUtf8 } from './utf8.js';
import { validateRules, type RuleError } from './validate.js';
import { NexusError } from '../errors.js';

/** A denial's error.detail is the first 256 bytes of the rule's reason (seed 000). */
export const REASON_MAX_BYTES = 256;

export interface CompiledRule {
  readonly index: number;
  readonly rule: ApprovalRule;
  readonly verdict: Verdict;
  readonly origin: Origin;
  readonly tools: readonly CompiledGlob[];
  /** Index into CompiledRules.paths, or -1 when the rule has no path (it matches the tool as a whole). */
  readonly pathId: number;
  readonly match: CompiledGlob | null;
  /** For a deny: the error.detail it gives (its reason, or a sentence naming it), already cut to 256 bytes. */
  readonly detail: string;
}

export interface CompiledRules {
  readonly kind: 'nexus.compiled-rules';
  /** The declared rules, in order (what an effect profile shows as matched_rules). */
  readonly rules: readonly ApprovalRule[];
  readonly compiled: readonly CompiledRule[];
  /** Distinct paths, pre-split; rules sharing a path share its text per call. */
  readonly paths: readonly (readonly string[])[];
  /** Per origin, a bounded memo: resolved tool name -> the rules (in order) whose tool names it. */
  readonly byTool: Readonly<Record<Origin, Map<string, readonly CompiledRule[]>>>;
  readonly byOrigin: Readonly<Record<Origin, readonly CompiledRule[]>>;
  /** Per-path buffers reused across calls for short texts' UTF-8 (evaluation is synchronous). */
  readonly scratch: Scratch;
}

export interface Scratch {
  /** Set while an evaluation uses the buffers; a re-entrant evaluation (an input getter calling back) gets fresh ones. */
  busy: boolean;
  /** Per path: -2 not read yet this call, -1 no text, else the UTF-8 length in the path's buffer. */
  readonly lens: Int32Array;
  readonly bufs: Uint8Array[];
  /** Per path, the 256-bit set of the bytes in its text (8 words each): a quick "cannot match" before the glob. */
  readonly sets: Uint32Array;
}

/** Memo entries per origin before the memo is dropped and rebuilt: wire names come from models, unbounded. */
export const TOOL_MEMO_LIMIT = 4096;

export class RulesInvalidError extends NexusError {
  constructor(readonly errors: RuleError[]) {
    super('invalid_rules', `invalid approval rules: ${errors.map((e) => e.message).join('; ')}`);
  }
}

function summary(rule: ApprovalRule): string {
  const { reason: _reason, ...rest } = rule;
  return JSON.stringify(rest);
}

function compileRule(rule: ApprovalRule, index: number, pathIds: Map<string, number>, paths: string[][]): CompiledRule {
  let pathId = -1;
  if (rule.path !== undefined) {
    const known = pathIds.get(rule.path);
    if (known !== undefined) pathId = known;
    else {
      pathId = paths.length;
      pathIds.set(rule.path, pathId);
      paths.push(splitPath(rule.path));
    }
  }
  const detail = rule.verdict !== 'deny' ? '' : cutUtf8(rule.reason ? rule.reason : `denied by approval rule ${index} ${summary(rule)}`, REASON_MAX_BYTES);
  return {
    index,
    rule,
    verdict: rule.verdict,
    origin: rule.origin ?? 'model',
    tools: rule.tool.split('|').map(compileGlob),
    pathId,
    match: rule.match !== undefined && rule.path !== undefined ? compileGlob(rule.match) : null,
    detail,
  };
}

/**
 * Compiles a rule list. It is validated first: an invalid list throws RulesInvalidError here, at declaration,
 * so evaluation never meets one. Pass what validateRules returned, or any list that would pass it.
 */
export function compileRules(rules: readonly ApprovalRule[]): CompiledRules {
  const checked = validateRules(rules);
  if (!checked.ok) throw new RulesInvalidError(checked.errors);
  const pathIds = new Map<string, number>();
  const paths: string[][] = [];
  const compiled = checked.rules.map((r, i) => compileRule(r, i, pathIds, paths));
  const byOrigin = {} as Record<Origin, CompiledRule[]>;
  const byTool = {} as Record<Origin, Map<string, readonly CompiledRule[]>>;
  for (const o of ORIGINS) {
    byOrigin[o] = compiled.filter((c) => c.origin === o);
    byTool[o] = new Map();
  }
  const scratch: Scratch = {
    busy: false,
    lens: new Int32Array(paths.length),
    bufs: paths.map(() => new Uint8Array(256)),
    sets: new Uint32Array(8 * paths.length),
  };
  return Object.freeze({ kind: 'nexus.compiled-rules', rules: Object.freeze(checked.rules), compiled, paths, byTool, byOrigin, scratch });
}

/** The compiled empty list: under it every model call is the mode's "unmatched". */
export const EMPTY_RULES: CompiledRules = compileRules([]);
