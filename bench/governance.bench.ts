// Governance against DESIGN §6: a gate decision (settings and entitlement read fresh from the store) ≤ 50 µs
// p99; and the per-hop overhead of a chain against the same actions taken by a lone agent (ratio).
// Run with `npm run bench` (bench/index.ts calls run()) or alone: `npx tsx bench/governance.bench.ts`.
// Real on-disk store (WAL, synchronous=NORMAL) in a fresh temp data dir; the real kernel and gate.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { generateKeyPairSync } from 'node:crypto';
import { SignJWT } from 'jose';
import { createNexus, type Nexus } from '../electron/app.js';
import { saveAgent } from '../electron/agents/profiles.js';
import type { ExecutorTool, Run } from '../electron/kernel/types.js';
import type { Governance } from '../electron/governance/service.js';
import { addMember, beginChain, bindMemberRun, placeOf } from '../electron/store/queries/chains.js';
import { readSettings } from '../electron/store/queries/settings.js';
import { gateEntitlement, PUBLIC_KEY_ENV } from '../electron/governance/entitlements.js';
import { decideHop } from '../shared/orchestration/gate.js';
import { hopFacts, recipientPosition, starterPosition } from '../shared/orchestration/chain.js';
import { jitter, line, now, pct } from './report.js';
import { removeDir } from '../test/support/world.js';
import { tx } from '../electron/store/db.js';

const noop: ExecutorTool = {
  name: 'noop',
  description: 'returns at once',
  inputSchema: { type: 'object' },
  run: async () => ({ content: [{ type: 'text', text: 'ok' }] }),
};

async function withNexus<T>(fn: (n: Nexus, gov: Governance) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'nexus-bench-gov-'));
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const env = { ...process.env, [PUBLIC_KEY_ENV]: publicKey.export({ type: 'spki', format: 'pem' }).toString() };
  const nexus = await createNexus({ dataDir: dir, env, modules: { governance: true } });
  try {
    const gov = nexus.governance!;
    const token = await new SignJWT({ ent: ['nexus.orchestration'], exp: Math.floor(Date.now() / 1000) + 3600 })
      .setProtectedHeader({ alg: 'EdDSA' })
      .sign(privateKey);
    await gov.importEntitlement(token);
    gov.setSetting('orchestration.enabled', true);
    gov.setSetting('orchestration.allowlist', ['lead', 'mid']);
    gov.setSetting('orchestration.perHopApproval', false);
    gov.setSetting('orchestration.maxDepth', 5);
    for (const name of ['lead', 'mid', 'solo'])
      saveAgent(nexus.kernel, { name, mode: 'bypass', model: { provider: 'chat-completions', baseURL: 'http://127.0.0.1:9/v1', model: 'none' } });
    nexus.kernel.registerTool(noop);
    return await fn(nexus, gov);
  } finally {
    await nexus.close();
    removeDir(dir); // and the workspaces the kernel made beside it
  }
}

/** A chain lead → mid laid out as a hand-off lays it out; returns mid's run. */
function chainRun(nexus: Nexus, gov: Governance): Run {
  const k = nexus.kernel;
  const lead = k.createRun({ agent: 'lead', mode: 'bypass' });
  const t = k.clock.now();
  const chain = beginChain(gov.db, { starter: 'lead', starterRunId: lead.id, recipient: 'mid', now: t });
  addMember(gov.db, { handoff_row_id: 'row_bench_handoff', chain_id: chain.id, position: recipientPosition(starterPosition('lead'), 'mid'), now: t });
  const mid = k.createRun({ agent: 'mid', mode: 'bypass', chain_id: chain.id, parent: { run_id: lead.id, row_id: 'row_bench_handoff' } });
  bindMemberRun(gov.db, 'row_bench_handoff', mid.id);
  return mid;
}

/**
 * The decision itself: position, chain, settings and entitlement read fresh from the store, then the table.
 * Timed inside a transaction, as the kernel calls the gate (within the transaction that records the row).
 */
function gateDecisionLatency(nexus: Nexus, gov: Governance, n: number): number[] {
  const mid = chainRun(nexus, gov);
  const out: number[] = [];
  const decideOnce = () =>
    tx(gov.db, () => {
      const t0 = now();
      const { member, chain } = placeOf(gov.db, mid)!;
      const d = decideHop(
        readSettings(gov.db),
        gateEntitlement(gov.db, gov.key.fingerprint, Date.now()),
        hopFacts({ chain_id: chain.id, touched: chain.touched }, 2, member, null),
      );
      out.push((now() - t0) * 1000);
      if (!d.allowed) throw new Error('the bench chain should be allowed');
    });
  for (let i = 0; i < n; i++) decideOnce();
  return out;
}

/**
 * The whole hook as the kernel calls it: inside a transaction, the decision plus the hop numbered;
 * then, committed, its effects (Recent chains).
 */
function gateHookLatency(nexus: Nexus, gov: Governance, n: number): number[] {
  const mid = chainRun(nexus, gov);
  const out: number[] = [];
  const hookOnce = (i: number) =>
    tx(gov.db, () => {
      const t0 = now();
      const d = gov.gate({ run: mid, row_id: `row_${i}`, wire_tool: 'noop', tool: 'noop', runner: null, input: { i }, origin: 'model' });
      if (!d.proceed) throw new Error('the bench hop should proceed');
      return { inside: now() - t0, after: d.after };
    });
  for (let i = 0; i < n; i++) {
    const { inside, after } = hookOnce(i); // the commit is the row's, not the gate's: not counted
    const t0 = now();
    after?.();
    out.push((inside + now() - t0) * 1000);
  }
  return out;
}

/** Per action, submit → terminal, for `n` sequential actions in one run. */
async function perAction(nexus: Nexus, run: Run, n: number): Promise<number[]> {
  const k = nexus.kernel;
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = now();
    await k.waitRow(k.submitRow(run.id, { tool: 'noop', input: { i }, origin: 'model' }).id);
    out.push((now() - t0) * 1000);
  }
  return out;
}

export async function run(): Promise<void> {
  await withNexus(async (nexus, gov) => {
    gateDecisionLatency(nexus, gov, 2000); // warm up
    const d = gateDecisionLatency(nexus, gov, 20_000);
    line('gate decision (settings + entitlement read), p50', `${pct(d, 50).toFixed(1)} µs`, '', null);
    line('gate decision (settings + entitlement read), p99', `${pct(d, 99).toFixed(1)} µs`, '≤ 50 µs', pct(d, 99) <= 50);
    const noise = jitter(pct(d, 50));
    line('  (info) machine noise: a plain loop, p50 / p99', `${noise.p50.toFixed(1)} / ${noise.p99.toFixed(1)} µs`, '', null);
    gateHookLatency(nexus, gov, 1000);
    const h = gateHookLatency(nexus, gov, 10_000);
    line('hop gate hook incl. recording the hop, p50', `${pct(h, 50).toFixed(1)} µs`, '', null);
    line('hop gate hook incl. recording the hop, p99', `${pct(h, 99).toFixed(1)} µs`, '', null);

    const solo = nexus.kernel.createRun({ agent: 'solo', mode: 'bypass' });
    const chained = chainRun(nexus, gov);
    await perAction(nexus, solo, 300);
    await perAction(nexus, chained, 300);
    const lone: number[] = [];
    const chain: number[] = [];
    // Interleaved rounds so drift (other processes, GC) hits both alike.
    for (let r = 0; r < 5; r++) {
      lone.push(...(await perAction(nexus, solo, 400)));
      chain.push(...(await perAction(nexus, chained, 400)));
    }
    const lm = pct(lone, 50);
    const cm = pct(chain, 50);
    line('an action by a lone agent (submit → done), p50', `${lm.toFixed(1)} µs`, '', null);
    line('the same action as a governed chain hop, p50', `${cm.toFixed(1)} µs`, '', null);
    line('per-hop overhead of a chain (p50 ratio chain / lone)', `${(cm / lm).toFixed(2)}x`, '≤ 1.2x', cm / lm <= 1.2);
    line('per-hop overhead of a chain (p50 difference)', `${(cm - lm).toFixed(1)} µs`, '', null);
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await run();
