// Shared by the benches that print `label  figure  budget … ok|OVER BUDGET` lines (kernel, governance).

export const now = () => performance.now();

/** The p-th percentile of the samples (nearest rank, never past the last). */
export const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

/** One result line; with no budget, just the figure. */
export function line(label: string, figure: string, budget: string, ok: boolean | null) {
  console.log(`${label.padEnd(58)} ${figure.padStart(14)}   ${budget ? `budget ${budget.padEnd(8)} ${ok ? 'ok' : 'OVER BUDGET'}` : ''}`);
}
