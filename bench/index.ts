// `npm run bench`: every budget of DESIGN §6, printed with its figure. Each bench file exports `run()`.
// Budgets live here, never in timed unit tests (they are flaky on shared machines).
// Exit 1 when a budget is missed or a suite is missing or unknown; `--report` prints the same and exits 0.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { missed } from './report.js';

const suites = ['rules', 'kernel', 'governance', 'sandbox', 'window', 'external', 'gemini-hook', 'cli', 'store', 'desk'];
const args = process.argv.slice(2);
const reportOnly = args.includes('--report');
const only = args.filter((a) => a !== '--report');
const problems: string[] = [];

for (const name of only) if (!suites.includes(name)) problems.push(`unknown bench suite "${name}" (the suites: ${suites.join(', ')})`);
for (const name of suites) {
  if (only.length && !only.includes(name)) continue;
  const file = join(import.meta.dirname, `${name}.bench.ts`);
  if (!existsSync(file)) {
    problems.push(`the ${name} suite has no bench file (${file})`);
    continue;
  }
  console.log(`\n## ${name}`);
  const mod = (await import(pathToFileURL(file).href)) as { run: () => Promise<void> };
  await mod.run();
}

problems.push(...missed.map((m) => `over budget: ${m}`));
if (problems.length) {
  console.log(`\n${problems.length} problem${problems.length === 1 ? '' : 's'}:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  if (!reportOnly) process.exitCode = 1;
} else console.log('\nevery budget met');
