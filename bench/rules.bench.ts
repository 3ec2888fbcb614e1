// Rule evaluation against DESIGN §6: ≤ 2 µs median with 10 rules, ≤ 50 µs with 1,000; the pathological glob
// on 100 KB in ≤ 5 ms. Run with `npm run bench` (bench/index.ts calls run()) or alone: `npx tsx bench/rules.bench.ts`.
import { pathToFileURL } from 'node:url';
import type { ApprovalRule } from '../shared/types.js';
import { compileGlob, compileRules, evaluateCall, matchGlob, type Call, type CompiledRules } from '../shared/rules/index.js';
import { utf8 } from '../shared/rules/utf8.js';
import picomatch from 'picomatch';
import { line, unmeasured } from './report.js';
import { cedarAuthorizer } from './cedar.js';

/** A realistic mixed list of n rules: denies on commands and paths, MCP tools, asks, author rules; the last one
 *  is the only rule the benchmarked call matches, after every earlier bash rule has been tried on its text. */
export function mixedRules(n: number): ApprovalRule[] {
  // Compact enough that 1,000 of them fit the 64 KiB envelope (about 65 bytes a rule), as they must.
  const shapes: ((i: number) => ApprovalRule)[] = [
    (i) => ({ tool: 'bash', path: 'command', match: `*git push*-f${i}*`, verdict: 'deny' }),
    (i) => ({ tool: 'write|edit', path: 'path', match: `*s${i}.env`, verdict: 'deny' }),
    (i) => ({ tool: 'bash', path: 'command', match: `t${i} *`, verdict: 'allow' }),
    (i) => ({ tool: `gh_${i}|gl_${i}`, verdict: 'ask' }),
    (i) => ({ tool: `memory_*|mcp${i}_*`, verdict: 'allow' }),
    (i) => ({ tool: 'bash', path: 'command', match: `*curl*h${i}*`, verdict: 'deny' }),
    (i) => ({ tool: 'edit', path: 'edits.0.path', match: `v${i}/*`, verdict: 'ask' }),
    (i) => ({ tool: `db_${i}`, verdict: 'deny', origin: 'author' }),
    (i) => ({ tool: 'read', path: 'path', match: `*/.ssh/k${i}`, verdict: 'deny' }),
    (i) => ({ tool: 'bash', path: 'command', match: `rm /tmp/x${i}?`, verdict: 'ask' }),
  ];
  const rules = Array.from({ length: n - 1 }, (_, i) => shapes[i % shapes.length](i));
  rules.push({ tool: 'bash', path: 'command', match: 'npm test*', verdict: 'allow' });
  return rules;
}

const LATE_CALL: Call = { tool: 'bash', input: { command: 'npm test -- --reporter=dot', timeout: 120 }, origin: 'model' };
const SHORT_CALL: Call = { tool: 'bash', input: { command: 'git push origin main' }, origin: 'model' };

/**
 * The same rules as picomatch RegExps, evaluated the same way (every rule of the call's origin whose tool
 * glob names the tool and whose path's text matches; deny wins, then ask, then allow): the baseline a
 * hand-written matcher must not lose to. `bash: true` makes `*` cross `/` as the seed's glob does.
 */
export function picomatchRules(rules: ApprovalRule[]): (call: Call) => string {
  const re = (glob: string) => picomatch.makeRe(glob, { bash: true, dot: true, nobrace: true, noextglob: true });
  const compiled = rules.map((r) => ({
    origin: r.origin ?? 'model',
    tools: r.tool.split('|').map(re),
    path: r.path?.split('.'),
    match: r.match === undefined ? null : re(r.match),
    verdict: r.verdict,
  }));
  const rank = { allow: 1, ask: 2, deny: 3 } as const;
  return (call) => {
    let best = 0;
    for (const r of compiled) {
      if (r.origin !== call.origin || !r.tools.some((t) => t.test(call.tool))) continue;
      if (r.path && r.match) {
        let v: unknown = call.input;
        for (const k of r.path) v = v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined;
        if (typeof v !== 'string' || !r.match.test(v)) continue;
      }
      best = Math.max(best, rank[r.verdict]);
    }
    return best === 3 ? 'deny' : best === 2 ? 'ask' : best === 1 ? 'allow' : 'none';
  };
}

const fmtUs = (ns: number) => `${(ns / 1000).toFixed(3)} µs`;
const fmtMs = (ns: number) => `${(ns / 1e6).toFixed(3)} ms`;

/** Median over `samples` batches of the per-call time of `batch` calls, in nanoseconds. */
function medianNs(fn: () => unknown, batch: number, samples: number): number {
  for (let i = 0; i < batch * 5; i++) fn(); // warm up: JIT and the per-tool memo
  const per: number[] = [];
  for (let s = 0; s < samples; s++) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < batch; i++) fn();
    per.push(Number(process.hrtime.bigint() - t0) / batch);
  }
  per.sort((a, b) => a - b);
  return per[Math.floor(per.length / 2)];
}

export async function run(): Promise<void> {
  const budgets: Record<number, number> = { 10: 2_000, 100: 20_000, 1000: 50_000 };
  for (const n of [10, 100, 1000]) {
    const compiled: CompiledRules = compileRules(mixedRules(n));
    const d = evaluateCall(compiled, 'rules', LATE_CALL);
    if (d.outcome !== 'granted' || d.matched[d.matched.length - 1] !== n - 1)
      throw new Error(`bench call must be granted by the last rule, got ${JSON.stringify(d)}`);
    const batch = n >= 1000 ? 200 : 5000;
    const ns = medianNs(() => evaluateCall(compiled, 'rules', LATE_CALL), batch, 41);
    const budget = budgets[n];
    line(
      `rule evaluation, ${n} rules, call matched by the last rule`,
      fmtUs(ns),
      n === 100 ? '' : fmtUs(budget).replace('.000', ''),
      n === 100 ? null : ns <= budget,
    );
  }

  // Informational: a command holding every byte the globs use, so the byte-set prefilter rejects nothing and
  // every candidate glob really runs (the worst case for a list like this).
  const heavy: Call = {
    ...LATE_CALL,
    input: { command: `npm test -- --reporter=dot # git push -f curl h t v s x rm /tmp/ .ssh/k .env ${'0123456789'.repeat(2)} *` },
  };
  for (const n of [10, 1000]) {
    const c = compileRules(mixedRules(n));
    const ns = medianNs(() => evaluateCall(c, 'rules', heavy), n >= 1000 ? 200 : 5000, 41);
    console.log(`${`  (info) ${n} rules, a command holding every glob byte`.padEnd(58)} ${fmtUs(ns).padStart(12)}`);
  }

  // Never slower than the same rules compiled to picomatch RegExps: the ratio is picomatch's time ÷ ours
  // (above 1: ours is faster), on the late call and on the command holding every glob byte.
  for (const n of [10, 1000]) {
    const rules = mixedRules(n);
    const ours = compileRules(rules);
    const theirs = picomatchRules(rules);
    for (const [what, call] of [
      ['late call', LATE_CALL],
      ['every glob byte', heavy],
      // A short command no rule allows: the fixed cost of a call (resolving the name and input, building the
      // decision) dominates here, not the globs.
      ['git push origin main', SHORT_CALL],
    ] as const) {
      const d = evaluateCall(ours, 'rules', call);
      // Unmatched under `rules` is refused, which the baseline reports as no rule matching.
      const verdict = d.outcome === 'granted' ? 'allow' : d.outcome === 'parked' ? 'ask' : d.matched.length ? 'deny' : 'none';
      if (theirs(call) !== verdict) throw new Error(`picomatch baseline disagrees on ${what} with ${n} rules: ${theirs(call)} vs ${verdict}`);
      const batch = n >= 1000 ? 200 : 5000;
      const oursNs = medianNs(() => evaluateCall(ours, 'rules', call), batch, 41);
      const theirsNs = medianNs(() => theirs(call), batch, 41);
      const ratio = theirsNs / oursNs;
      line(`picomatch ÷ ours, ${n} rules, ${what}`, `${ratio.toFixed(2)}x`, '≥ 1x', ratio >= 1);
      console.log(`    ours ${fmtUs(oursNs)}, picomatch ${fmtUs(theirsNs)}`);
    }
  }

  // Beside a real policy engine: Cedar (cedar-wasm, its policy set parsed once and cached), the same rules as
  // policies, one decision per call. The ratio is Cedar's time ÷ ours.
  for (const n of [10, 1000]) {
    const rules = mixedRules(n);
    const ours = compileRules(rules);
    const cedar = await cedarAuthorizer(rules);
    if (!cedar) {
      unmeasured(`Cedar ÷ ours, ${n} rules, late call`, '@cedar-policy/cedar-wasm is not installed');
      continue;
    }
    const oursNs = medianNs(() => evaluateCall(ours, 'rules', LATE_CALL), n >= 1000 ? 200 : 5000, 41);
    const cedarNs = medianNs(() => cedar(LATE_CALL), n >= 1000 ? 5 : 50, 21);
    line(`Cedar ÷ ours, ${n} rules, late call`, `${(cedarNs / oursNs).toFixed(0)}x`, '≥ 1x', cedarNs >= oursNs);
    console.log(`    ours ${fmtUs(oursNs)}, Cedar ${fmtUs(cedarNs)}`);
  }

  // Informational: a wire name never seen before (the per-tool memo misses), 1,000 rules.
  const compiled = compileRules(mixedRules(1000));
  let k = 0;
  const cold = medianNs(() => evaluateCall(compiled, 'rules', { ...LATE_CALL, tool: `bash__${(k++ % 0xffffff).toString(16).padStart(12, '0')}` }), 100, 21);
  console.log(`${'  (info) 1,000 rules, a new runner-routed name every call'.padEnd(58)} ${fmtUs(cold).padStart(12)}`);

  const text = 'a'.repeat(100_000);
  const glob = compileGlob('*a*a*a*a*a*a*b');
  const bytes = utf8(text);
  if (matchGlob(glob, bytes)) throw new Error('pathological glob must not match');
  const globNs = medianNs(() => matchGlob(glob, bytes), 5, 41);
  line('pathological glob *a*a*a*a*a*a*b on 100 KB of a', fmtMs(globNs), '5 ms', globNs <= 5e6);
  for (const [label, pattern] of [
    ['  (info) *a*a*a*a*a*ab* (a full KMP pass)', '*a*a*a*a*a*ab*'],
    ['  (info) *a?a?a…?b* (a 41-byte ? segment, 2-word shift-and)', `*${'a?'.repeat(20)}b*`],
    ['  (info) *aaaa…ab* (a 300-byte literal segment)', `*${'a'.repeat(300)}b*`],
  ] as const) {
    const g = compileGlob(pattern);
    const t = medianNs(() => matchGlob(g, bytes), 5, 21);
    console.log(`${label.padEnd(58)} ${fmtMs(t).padStart(12)}`);
  }
  const viaStage = compileRules([{ tool: 'bash', path: 'command', match: '*a*a*a*a*a*a*b', verdict: 'deny' }]);
  const stageNs = medianNs(() => evaluateCall(viaStage, 'bypass', { tool: 'bash', input: { command: text }, origin: 'model' }), 5, 41);
  line('  same, through evaluateCall (UTF-8 encoding included)', fmtMs(stageNs), '5 ms', stageNs <= 5e6);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await run();
