// A soak for V8 aborts on the rule evaluator's hot path: `npx tsx bench/soak.ts [--seconds N]` runs, each in a
// child process of its own for N seconds, (1) NEXUS's evaluateCall alone, (2) interleaved with the same rules as
// picomatch RegExps, (3) interleaved with picomatch and Cedar (cedar-wasm) as bench/rules.bench.ts does, and
// (4) the kernel's hot path (rows through the stage on a real SQLite). It prints how each child ended: a V8
// abort ("unreachable code", SIGTRAP, exit 133) shows which mix triggers it.
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { compileRules, evaluateCall, type Call } from '../shared/rules/index.js';
import { mixedRules, picomatchRules } from './rules.bench.js';
import { cedarAuthorizer } from './cedar.js';
import { removeDir } from '../test/support/world.js';

const MIXES = ['ours', 'ours+picomatch', 'ours+picomatch+cedar', 'kernel'] as const;
type Mix = (typeof MIXES)[number];

const CALLS: Call[] = [
  { tool: 'bash', input: { command: 'npm test -- --reporter=dot', timeout: 120 }, origin: 'model' },
  { tool: 'bash', input: { command: 'git push origin main' }, origin: 'model' },
  { tool: 'write', input: { path: 'src/s3.env', content: 'x' }, origin: 'model' },
  { tool: 'mcp7_query', input: { q: 'select 1' }, origin: 'model' },
  { tool: 'db_5', input: {}, origin: 'author' },
];

async function soak(mix: Mix, seconds: number): Promise<number> {
  let n = 0;
  if (mix === 'kernel') {
    const { createNexus } = await import('../electron/app.js');
    const dir = mkdtempSync(join(tmpdir(), 'nexus-soak-'));
    const nexus = await createNexus({ dataDir: dir, modules: {} });
    try {
      const k = nexus.kernel;
      k.registerTool({
        name: 'noop',
        description: 'does nothing',
        inputSchema: { type: 'object' },
        run: async () => ({ content: [{ type: 'text', text: 'ok' }] }),
      });
      const run = k.createRun({ agent: null, mode: 'rules', rules: [...mixedRules(10), { tool: 'noop', verdict: 'allow' }] });
      const end = Date.now() + seconds * 1000;
      while (Date.now() < end) {
        const rows = k.submitRows(
          run.id,
          Array.from({ length: 10 }, (_, i) => ({ tool: 'noop', input: { i }, origin: 'model' as const })),
        );
        for (const r of rows) await k.waitRow(r.id);
        n += rows.length;
      }
    } finally {
      await nexus.close();
      removeDir(dir); // and the workspaces the kernel made beside it
    }
    return n;
  }
  const rules = mixedRules(10);
  const ours = compileRules(rules);
  const theirs = mix.includes('picomatch') ? picomatchRules(rules) : null;
  const cedar = mix.includes('cedar') ? await cedarAuthorizer(rules) : null;
  if (mix.includes('cedar') && (!cedar || cedar(CALLS[0]!) !== 'allow')) throw new Error('cedar-wasm is not installed or answers wrongly');
  const end = Date.now() + seconds * 1000;
  while (Date.now() < end) {
    for (let i = 0; i < 10_000; i++) {
      const call = CALLS[i % CALLS.length]!;
      evaluateCall(ours, 'rules', call);
      theirs?.(call);
      cedar?.(call);
      n++;
    }
  }
  return n;
}

const argv = process.argv.slice(2);
const child = argv[0] === '--child' ? (argv[1] as Mix) : null;
const seconds = Number(argv[argv.indexOf('--seconds') + 1]) || 60;

if (child) {
  const n = await soak(child, seconds);
  console.log(`${child}: ${n.toLocaleString('en')} evaluations in ${seconds} s`);
} else if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const self = fileURLToPath(import.meta.url);
  for (const mix of MIXES) {
    const r = spawnSync(process.execPath, ['--import', 'tsx', self, '--child', mix, '--seconds', String(seconds)], { encoding: 'utf8' });
    const how = r.signal ? `killed by ${r.signal}` : `exit ${r.status}`;
    const abort = /unreachable code|Deoptimizer|Fatal error/.test(r.stderr);
    console.log(`${mix.padEnd(24)} ${how.padEnd(10)} ${abort ? 'V8 ABORT' : 'no abort'}  ${r.stdout.trim()}`);
    if (abort) console.log(r.stderr.split('\n').slice(0, 12).join('\n'));
  }
}
