// OpenCode's NEXUS plugin (`<project>/.opencode/plugin/nexus-approval.js`, or
// `~/.config/opencode/plugin/nexus-approval.js` for the user). OpenCode has no command hooks: a plugin's
// `tool.execute.before` is awaited before every tool call, and throwing blocks the call (the model reads the
// error). The plugin runs NEXUS's hook (nexus-hook.mjs --client opencode) with a PreToolUse event built from
// OpenCode's `{tool, sessionID, callID}` and `{args}`, and allows only an answer that says allow: a hook that
// fails, is killed or prints anything else blocks the call. OpenCode sets no timeout on the await, so the wait
// is the hook's own (--timeout-s): NEXUS answers "not approved in time" just before it.
import { HOOK_MARK, shQuote, type HookSpec } from './hook-command.js';

export const OPENCODE_PLUGIN_FILE = 'nexus-approval.js';

/** The hook's argv and the environment it needs (Electron's node runs a script with ELECTRON_RUN_AS_NODE). */
function hookArgv(spec: HookSpec): { argv: string[]; env: Record<string, string> } {
  const electron = 'ELECTRON_RUN_AS_NODE=1 ';
  const isElectron = spec.node.startsWith(electron);
  const argv = [isElectron ? spec.node.slice(electron.length) : spec.node, spec.script, '--client', 'opencode', '--data-dir', spec.dataDir];
  argv.push('--timeout-s', String(spec.timeoutS));
  if (spec.whenDown === 'ask') argv.push('--when-down', 'ask');
  return { argv, env: isElectron ? { ELECTRON_RUN_AS_NODE: '1' } : {} };
}

export function opencodePlugin(spec: HookSpec): string {
  const { argv, env } = hookArgv(spec);
  return `// NEXUS approval plugin, written by \`nexus connect opencode\` (remove it with \`nexus disconnect opencode\`).
// Every tool call OpenCode makes asks NEXUS first (${HOOK_MARK}); only an "allow" answer lets it run.
import { spawn } from 'node:child_process';

const HOOK = ${JSON.stringify(argv)};
const HOOK_ENV = ${JSON.stringify(env)};

function ask(event) {
  return new Promise((resolve) => {
    let out = '';
    let err = '';
    let child;
    try {
      child = spawn(HOOK[0], HOOK.slice(1), { env: { ...process.env, ...HOOK_ENV }, stdio: ['pipe', 'pipe', 'pipe'] });
    } catch (e) {
      return resolve({ decision: 'deny', reason: 'NEXUS could not be asked (' + String(e) + '), so this call did not run.' });
    }
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', (e) => resolve({ decision: 'deny', reason: 'NEXUS could not be asked (' + e.message + '), so this call did not run.' }));
    child.on('close', () => {
      try {
        const a = JSON.parse(out.trim().split('\\n').pop() || '');
        if (a && typeof a.decision === 'string' && typeof a.reason === 'string') return resolve(a);
      } catch {}
      resolve({ decision: 'deny', reason: (err.trim() || 'NEXUS gave no answer') + '; this call did not run.' });
    });
    child.stdin.end(JSON.stringify(event));
  });
}

export const NexusApproval = async ({ directory }) => ({
  'tool.execute.before': async (input, output) => {
    const event = {
      session_id: String(input.sessionID),
      cwd: directory,
      hook_event_name: 'PreToolUse',
      tool_name: String(input.tool),
      tool_input: output.args ?? {},
      tool_use_id: String(input.callID ?? ''),
    };
    const a = await ask(event);
    if (a.decision !== 'allow') throw new Error(a.reason);
  },
});
`;
}

/** The NEXUS hook command the plugin file holds (its argv, quoted as a hook command is). */
export function opencodeHookCommands(text: string | null): string[] {
  if (!text || !text.includes(HOOK_MARK)) return [];
  const m = /^const HOOK = (\[.*\]);$/m.exec(text);
  const list = m?.[1];
  if (!list) return [];
  try {
    const argv: unknown = JSON.parse(list);
    return Array.isArray(argv) && argv.every((a) => typeof a === 'string') ? [argv.map(shQuote).join(' ')] : [];
  } catch {
    return [];
  }
}
