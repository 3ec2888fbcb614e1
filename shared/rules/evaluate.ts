// The approval stage's decision for one call (seed 000, "The modes" and "The rule grammar"). Pure and total:
// it never throws, whatever the input; anything it cannot read is refused (fail closed).
//
// 1. Resolve the wire name (kernel aliases, then runner routes) and the input keys (tool-names.ts).
// 2. Collect EVERY rule addressed to the call's origin (a rule's origin defaults to model) that matches.
// 3. deny wins, then ask, then allow; the first matching deny's detail rides.
// 4. The mode's table:
//      model row   | deny                    | allow          | ask            | unmatched
//      bypass      | failed approval_denied  | granted (mode) | granted (mode) | granted (mode)
//      ask         | failed approval_denied  | granted (rule) | parked         | parked
//      rules       | failed approval_denied  | granted (rule) | parked         | failed "no approval rule allows NAME"
//    An author or kernel row is granted by its origin under every mode; an ask rule naming its origin parks it
//    and a deny rule naming its origin refuses it. An allow rule naming it changes nothing: still granted by
//    'origin' (the origin is what pre-approved it; the rule is listed in `matched`).
import type { Mode, Origin, StageDecision } from '../types.js';
import type { CompiledRule, CompiledRules } from './compile.js';
import { TOOL_MEMO_LIMIT } from './compile.js';
import { byteSet, matchGlob, mayMatch } from './glob.js';
import { textOf, walkPath } from './path.js';
import { resolveInput, resolveToolName, type ResolvedTool } from './tool-names.js';
import { encodeUtf8Into, utf8 } from './utf8.js';

/** Texts up to this many UTF-16 units are encoded into reused buffers; longer ones into their own. */
const SHORT_TEXT = 1024;
/** Below this many candidate rules, the byte-set prefilter costs more (a pass over the text) than it saves. */
const PREFILTER_MIN = 8;

export interface Call {
  /** The wire name the model (or author, or kernel) used. */
  tool: string;
  input: unknown;
  origin: Origin;
}

/**
 * A call whose wire name and input keys are already resolved (tool-names.ts): the stage resolves once when it
 * records the row, and the rules read exactly what was recorded and what runs.
 */
export interface ResolvedCall {
  tool: Pick<ResolvedTool, 'name' | 'runner'>;
  /** The input with the alias's keys renamed (resolveInput). */
  input: unknown;
  origin: Origin;
}

/** The decision, plus the runner a `NAME__<12 hex>` route targets (null for a kernel tool). */
export type Evaluation = StageDecision & { runner: string | null };

const NO_MATCH: readonly CompiledRule[] = Object.freeze([]);

function refuse(tool: string, detail: string, matched: number[] = [], runner: string | null = null): Evaluation {
  return { outcome: 'failed', error: { code: 'approval_denied', detail }, tool, matched, runner };
}

/** The rules of one origin whose tool globs name this resolved tool, memoized per compiled list. */
function rulesForTool(compiled: CompiledRules, origin: Origin, name: string): readonly CompiledRule[] {
  const memo = compiled.byTool[origin];
  const hit = memo.get(name);
  if (hit) return hit;
  const all = compiled.byOrigin[origin];
  let found: CompiledRule[] | null = null;
  if (all.length) {
    const bytes = utf8(name);
    for (const r of all) {
      for (const g of r.tools) {
        if (matchGlob(g, bytes)) {
          (found ??= []).push(r);
          break;
        }
      }
    }
  }
  if (memo.size >= TOOL_MEMO_LIMIT) memo.clear();
  const list = found ?? NO_MATCH;
  memo.set(name, list);
  return list;
}

const isMode = (m: unknown): m is Mode => m === 'bypass' || m === 'ask' || m === 'rules';
const isCompiled = (c: unknown): c is CompiledRules => typeof c === 'object' && c !== null && (c as CompiledRules).kind === 'nexus.compiled-rules';

function decide(compiled: CompiledRules, mode: Mode, call: ResolvedCall): Evaluation {
  const name = call.tool.name;
  const runner = call.tool.runner;
  // Anything that is not exactly author or kernel is a model row: the strict reading.
  const origin: Origin = call.origin === 'author' || call.origin === 'kernel' ? call.origin : 'model';
  const candidates = rulesForTool(compiled, origin, name);

  const matched: number[] = [];
  let deny: CompiledRule | null = null;
  let ask = false;
  let allow = false;
  if (candidates.length) {
    const input = call.input;
    const sc = compiled.scratch;
    const reuse = !sc.busy;
    const lens = reuse ? sc.lens : new Int32Array(compiled.paths.length);
    const bufs = reuse ? sc.bufs : compiled.paths.map(() => new Uint8Array(256));
    const sets = reuse ? sc.sets : new Uint32Array(8 * compiled.paths.length);
    // Long texts are encoded into their own arrays, never kept: the scratch buffers stay small.
    let long: Uint8Array[] | null = null;
    const prefilter = candidates.length >= PREFILTER_MIN;
    if (reuse) sc.busy = true;
    try {
      lens.fill(-2);
      for (const r of candidates) {
        const id = r.pathId;
        if (id >= 0) {
          let len = lens[id];
          if (len === -2) {
            const text = textOf(walkPath(input, compiled.paths[id]));
            if (text === null) len = -1;
            else if (text.length <= SHORT_TEXT) {
              if (bufs[id].length < text.length * 3) bufs[id] = new Uint8Array(text.length * 3);
              len = encodeUtf8Into(text, bufs[id]);
            } else {
              long ??= [];
              long[id] = utf8(text);
              len = long[id].length;
            }
            if (len >= 0 && prefilter) byteSet(long?.[id] ?? bufs[id], len, sets, id * 8);
            lens[id] = len;
          }
          if (len < 0) continue;
          if (r.match && !((!prefilter || mayMatch(r.match, sets, id * 8)) && matchGlob(r.match, long?.[id] ?? bufs[id], len))) continue;
        }
        matched.push(r.index);
        if (r.verdict === 'deny') deny ??= r;
        else if (r.verdict === 'ask') ask = true;
        else allow = true;
      }
    } finally {
      if (reuse) sc.busy = false;
    }
  }

  if (deny) return refuse(name, deny.detail, matched, runner);
  if (origin !== 'model') {
    if (ask) return { outcome: 'parked', tool: name, matched, runner };
    return { outcome: 'granted', granted_by: 'origin', tool: name, matched, runner };
  }
  if (mode === 'bypass') return { outcome: 'granted', granted_by: 'mode', tool: name, matched, runner };
  if (ask) return { outcome: 'parked', tool: name, matched, runner };
  if (allow) return { outcome: 'granted', granted_by: 'rule', tool: name, matched, runner };
  if (mode === 'ask') return { outcome: 'parked', tool: name, matched, runner };
  return refuse(name, `no approval rule allows ${name}`, matched, runner);
}

/**
 * Decides one call. Total: a broken argument (not compiled rules, an unknown mode, a tool name that is not a
 * string, an input that throws when read) is refused with approval_denied and a detail saying why.
 */
export function evaluateCall(compiled: CompiledRules, mode: Mode, call: Call): Evaluation {
  try {
    const wire = typeof call === 'object' && call !== null ? call.tool : undefined;
    if (typeof wire !== 'string') return refuse('', 'the call names no tool (its tool name is not text)');
    const tool = resolveToolName(wire);
    return evaluateResolved(compiled, mode, { tool, input: resolveInput(tool, call.input), origin: call.origin });
  } catch {
    return refuse('', 'the approval stage could not read this call');
  }
}

/** Decides a call already resolved (the stage's path: the name is resolved once, when the row is recorded). Total. */
export function evaluateResolved(compiled: CompiledRules, mode: Mode, call: ResolvedCall): Evaluation {
  try {
    const name = typeof call?.tool?.name === 'string' ? call.tool.name : '';
    if (!isCompiled(compiled)) return refuse(name, 'the approval rules were not compiled');
    if (!isMode(mode)) return refuse(name, `unknown approval mode ${JSON.stringify(String(mode))}`);
    return decide(compiled, mode, call);
  } catch {
    return refuse('', 'the approval stage could not read this call');
  }
}
