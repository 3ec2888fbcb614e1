// The attacks of sandbox-attempts.ts run as bash rows (runCommand, as the kernel runs them) by this process,
// so containment-sandbox.test.ts can bundle it into a folder nobody can read and run it as an unprivileged
// user. argv[2]: JSON AttackTargets without kernelPid (this process stands for the kernel); stdout: one JSON
// object, attempt name -> what the agent saw.
import { runCommand } from '../../../electron/kernel/tools/bash.js';
import { attempts, NETWORK, type AttackTargets } from './sandbox-attempts.js';

const targets = { ...(JSON.parse(process.argv[2]!) as AttackTargets), kernelPid: process.pid, node: process.execPath };
const ws = process.argv[3]!;
const out: Record<string, string> = {};
for (const [name, command] of Object.entries(attempts(targets))) {
  const policy = { enabled: true, workspace: ws, hidden: [], networkAllow: NETWORK, envPassthrough: [], envWithheld: [] };
  const r = await runCommand(command, { cwd: ws, timeout_ms: 30_000, policy });
  out[name] = `${r.refused ?? ''}${r.stdout}${r.stderr}`;
}
process.stdout.write(JSON.stringify(out));
