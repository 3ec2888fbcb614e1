// `nexus demo`: the offline demo from the command line, as the window's welcome plays it (electron/demo/):
// two demo agents on a scripted local model (not an AI) run a chain through the real stage and gate. It
// changes no setting, so what the chain meets is the gate as configured; the kernel says which beforehand.
import type { CliCommand } from './io.js';
import { expectValue, parse, printJson, usageError, withKernel } from './common.js';
import { inlineText } from './terminal-text.js';

const DEMO_USAGE = `usage: nexus demo [--data-dir DIR] [--json]
  Saves demo-planner and demo-builder (mode ask, on a scripted local model: not an AI) and starts
  demo-planner's turn; follow it with nexus inbox, nexus approve ID and nexus chains.`;

export const demoCommand: CliCommand = async (argv, io) => {
  const p = parse(argv, {}, io, DEMO_USAGE);
  if ('exit' in p) return p.exit;
  if (p.positionals.length) return usageError(io, DEMO_USAGE, `unexpected ${p.positionals.join(' ')}`);
  return withKernel(p.values, io, async (api) => {
    const r = await expectValue(io, api.demoStart({}));
    if (!r) return 1;
    if (p.values.json) {
      printJson(io, r.value);
      return 0;
    }
    io.out(
      [
        `demo started: run ${r.value.run_id} (${r.value.agents.join(', ')}, on a scripted local model: not an AI)`,
        inlineText(r.value.expect),
        'Follow it here: nexus inbox lists the cards (nexus approve ID answers one), nexus chains shows the chain.',
      ].join('\n'),
    );
    return 0;
  });
};
