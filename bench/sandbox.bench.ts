// The OS sandbox's cost per bash call: the kernel's bash path (gate + bubblewrap: own pid/net/ipc/uts
// namespaces, read-only root, private /tmp, hidden data dir) against a plain `bash -c true`. Figures:
// the ratio of medians and the added ms at p50 and p99 (budget: ≤ 15 ms added at p50).
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCommand } from '../electron/kernel/tools/bash.js';
import { sandboxAvailability } from '../electron/sandbox/index.js';
import type { SandboxPolicy } from '../electron/sandbox/index.js';
import { line, now, pct, unmeasured } from './report.js';
import { peerSandbox } from './sandbox-peer.js';

const N = Number(process.env.SANDBOX_BENCH_N ?? 200);

const plain = (cwd: string) =>
  new Promise<void>((resolve) => {
    const c = spawn('bash', ['-c', 'true'], { cwd, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    c.on('close', () => resolve());
  });

async function sample(n: number, f: () => Promise<unknown>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = now();
    await f();
    out.push(now() - t);
  }
  return out;
}

export async function run(): Promise<void> {
  const avail = sandboxAvailability();
  if (avail.kind !== 'bwrap') {
    unmeasured('sandbox cost added per bash call, p50', `no bubblewrap here — ${avail.kind ?? avail.why}`);
    return;
  }
  const root = mkdtempSync(join(tmpdir(), 'nexus-sbx-bench-'));
  const ws = join(root, 'ws');
  const data = join(root, 'data');
  mkdirSync(ws);
  mkdirSync(data);
  const policy: SandboxPolicy = { enabled: true, workspace: ws, hidden: [data], networkAllow: [], envPassthrough: [], envWithheld: [] };
  const unsandboxed: SandboxPolicy = { ...policy, enabled: false };
  try {
    // Warm up both paths (page cache, the sandbox probe).
    await sample(10, () => plain(ws));
    await sample(10, () => runCommand('true', { cwd: ws, timeout_ms: 10_000, policy }));
    // Interleaved so machine load hits both alike.
    const base: number[] = [];
    const gated: number[] = [];
    const boxed: number[] = [];
    for (let i = 0; i < N; i++) {
      base.push(...(await sample(1, () => plain(ws))));
      gated.push(...(await sample(1, () => runCommand('true', { cwd: ws, timeout_ms: 10_000, policy: unsandboxed }))));
      boxed.push(...(await sample(1, () => runCommand('true', { cwd: ws, timeout_ms: 10_000, policy }))));
    }
    const b50 = pct(base, 50);
    const s50 = pct(boxed, 50);
    line(`plain \`bash -c true\`, p50 / p99 (${N} calls)`, `${b50.toFixed(2)} / ${pct(base, 99).toFixed(2)} ms`, '', null);
    line('bash row, sandbox off (allowlisted env + gate), p50 / p99', `${pct(gated, 50).toFixed(2)} / ${pct(gated, 99).toFixed(2)} ms`, '', null);
    line('bash row in the sandbox (bubblewrap), p50 / p99', `${s50.toFixed(2)} / ${pct(boxed, 99).toFixed(2)} ms`, '', null);
    line('sandboxed ÷ plain (p50)', `${(s50 / b50).toFixed(2)}×`, '', null);
    line('sandbox cost added per bash call, p50', `${(s50 - b50).toFixed(2)} ms`, '≤ 15 ms', s50 - b50 <= 15);
    line('load average while measuring (1 min)', loadavg()[0]!.toFixed(1), '', null);
    line('sandbox cost added per bash call, p99', `${(pct(boxed, 99) - pct(base, 99)).toFixed(2)} ms`, '', null);
    await beside(ws, data, policy);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** NEXUS's sandboxed `true` and @anthropic-ai/sandbox-runtime's, interleaved: the peer's p50 ÷ ours (≥ 1: the lead holds). */
async function beside(ws: string, hidden: string, policy: SandboxPolicy): Promise<void> {
  const label = 'sandbox-runtime ÷ NEXUS per sandboxed command (p50)';
  const peer = await peerSandbox(ws, hidden);
  if (typeof peer === 'string') return unmeasured(label, peer);
  try {
    const n = Math.max(20, Math.round(N / 4));
    await sample(5, () => peer.run());
    const ours: number[] = [];
    const theirs: number[] = [];
    for (let i = 0; i < n; i++) {
      ours.push(...(await sample(1, () => runCommand('true', { cwd: ws, timeout_ms: 10_000, policy }))));
      theirs.push(...(await sample(1, () => peer.run())));
    }
    const r = pct(theirs, 50) / pct(ours, 50);
    line(label, `${r.toFixed(2)}×`, '≥ 1×', r >= 1);
    console.log(`    NEXUS ${pct(ours, 50).toFixed(2)} ms, sandbox-runtime ${pct(theirs, 50).toFixed(2)} ms (${n} calls each)`);
  } finally {
    await peer.close();
  }
}
