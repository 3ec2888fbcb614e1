// `npm run bench`: every budget of DESIGN §6, printed with its figure. Each bench file exports `run()`.
// Budgets live here, never in timed unit tests (they are flaky on shared machines).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const suites = ['rules', 'kernel', 'governance', 'sandbox', 'window', 'external', 'cli', 'store'];
const only = process.argv.slice(2);

for (const name of suites) {
  if (only.length && !only.includes(name)) continue;
  const file = join(import.meta.dirname, `${name}.bench.ts`);
  if (!existsSync(file)) {
    console.log(`\n## ${name}: no bench file yet`);
    continue;
  }
  console.log(`\n## ${name}`);
  const mod = (await import(pathToFileURL(file).href)) as { run: () => Promise<void> };
  await mod.run();
}
