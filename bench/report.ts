// Shared by the benches that print `label  figure  budget … ok|OVER BUDGET` lines (kernel, governance).
import { spawn } from 'node:child_process';

export const now = () => performance.now();

/** One `node ARGS` process fed `stdin`: its wall time (spawn to close) and what it printed. */
export function timeSpawn(args: string[], stdin: string): Promise<{ ms: number; out: string }> {
  const t0 = now();
  return new Promise((resolve, reject) => {
    const c = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'inherit'] });
    let out = '';
    c.stdout.on('data', (d) => (out += d));
    c.on('error', reject);
    c.on('close', () => resolve({ ms: now() - t0, out }));
    c.stdin.end(stdin);
  });
}

/** The p-th percentile of the samples (nearest rank, never past the last). */
export const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

/** The budgets missed so far in this process: `npm run bench` exits non-zero when any is. */
export const missed: string[] = [];

/** A budget that could not be measured here counts as missed: a bench that cannot fail is no check. */
export function unmeasured(label: string, why: string) {
  missed.push(`${label}: not measured (${why})`);
  console.log(`${label.padEnd(58)} NOT MEASURED: ${why}`);
}

/** One result line; with no budget, just the figure. A budget with `ok` false is recorded as missed. */
export function line(label: string, figure: string, budget: string, ok: boolean | null) {
  if (budget && ok === false) missed.push(`${label.trim()}: ${figure} (budget ${budget})`);
  console.log(`${label.padEnd(58)} ${figure.padStart(14)}   ${budget ? `budget ${budget.padEnd(8)} ${ok ? 'ok' : 'OVER BUDGET'}` : ''}`);
}

/**
 * This machine's timing noise: p50 and p99 of a fixed compute loop of about `us` µs. A p99 budget is read
 * against it (on a shared VM a pure loop's p99 can sit tens of µs above its p50).
 */
export function jitter(us: number, n = 20_000): { p50: number; p99: number } {
  let spins = 1000;
  let x = 0;
  const loop = () => {
    for (let j = 0; j < spins; j++) x += (j * j) % 7;
  };
  for (let i = 0; i < 2000; i++) loop(); // warm up: the calibration must time compiled code
  const t = now();
  for (let i = 0; i < 100; i++) loop();
  spins = Math.max(1, Math.round((spins * us * 100) / Math.max(0.001, (now() - t) * 1000)));
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = now();
    loop();
    out.push((now() - t0) * 1000);
  }
  if (x < 0) throw new Error('unreachable: keeps the loop from being optimized away');
  return { p50: pct(out, 50), p99: pct(out, 99) };
}
