// `nexus open [--data-dir DIR] [--json]`: a new one-time address for the browser host of the running
// `nexus serve`. Each address opens NEXUS in one tab, within two minutes; a reloaded tab forgets its key (it
// is kept in the page's memory only), so this is how the person gets back in, or opens a second tab.
import type { CliCommand } from './io.js';
import { expectValue, parse, printJson, usageError, withKernel } from './common.js';

const USAGE = `usage: nexus open [--data-dir DIR] [--json]
  Prints a new address for the browser host of the running \`nexus serve\`: it opens NEXUS in one tab,
  within 2 minutes.`;

export const openCommand: CliCommand = async (argv, io) => {
  const p = parse(argv, {}, io, USAGE);
  if ('exit' in p) return p.exit;
  if (p.positionals.length) return usageError(io, USAGE, `unexpected ${p.positionals.join(' ')}`);
  return withKernel(p.values, io, async (_api, k) => {
    const r = await expectValue(io, k.webOpen());
    if (!r) return 1;
    if (p.values.json) printJson(io, r.value);
    else io.out(`Open this address (once, within 2 minutes): ${r.value.url}`);
    return 0;
  });
};
