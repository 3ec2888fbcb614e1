// The hook a connected client runs before each tool call (`nexus connect` installs it): reads the client's hook
// JSON on stdin, asks the NEXUS kernel of one data dir over its control socket, prints the client's answer.
// Small and fast on purpose: node built-ins only (no zod, no SDK, not the CLI bundle); built on its own to
// dist/hook/nexus-hook.mjs.
//
//   node nexus-hook.mjs --client claude-code|codex|gemini|opencode --data-dir DIR [--timeout-s 900] [--when-down deny|ask]
//
// Fail closed. Both clients treat a hook that dies or times out as "no opinion", which can let the call run, so
// this process always answers: deny when NEXUS is not running (or `ask`: the client's own prompt, if the person
// chose that), deny when NEXUS does not answer before the client's timeout, deny on anything unreadable.
import { askKernel } from './ask-kernel.js';
import { renderAnswer, type HookAnswer } from './render.js';
import { reportSessionEnd } from './session-end.js';
import { errorMessage } from '../../../shared/errors.js';
import { HOOK_CLIENTS, normalizeEvent, projectDir, renderTopLevel, type HookClient } from './gemini-opencode.js';

const NOT_RUNNING = 'NEXUS is not running, so nobody can approve this call; it did not run. Start NEXUS (or `nexus serve`) and try again.';
const NO_ANSWER = 'NEXUS did not answer in time, so this call did not run. Nobody approved it.';

interface Args {
  client: HookClient;
  dataDir: string;
  timeoutS: number;
  whenDown: 'deny' | 'ask';
}

function parseArgs(argv: string[]): Args | string {
  const a: Partial<Args> = { timeoutS: 600, whenDown: 'deny' };
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i];
    const v = argv[i + 1];
    const client = HOOK_CLIENTS.find((c) => c === v);
    if (k === '--client' && client) a.client = client;
    else if (k === '--data-dir' && v) a.dataDir = v;
    else if (k === '--timeout-s' && v && Number(v) >= 10) a.timeoutS = Number(v);
    else if (k === '--when-down' && (v === 'deny' || v === 'ask')) a.whenDown = v;
    else return `nexus-hook: unknown or bad argument ${k}`;
    i++;
  }
  if (!a.client || !a.dataDir) return 'nexus-hook: --client and --data-dir are required';
  return a as Args;
}

function readStdin(): Promise<string> {
  return new Promise((resolve, reject) => {
    let s = '';
    process.stdin.setEncoding('utf8');
    process.stdin.on('data', (d) => (s += d));
    process.stdin.on('end', () => resolve(s));
    process.stdin.on('error', reject);
  });
}

function finish(out: string | null, code = 0): never {
  if (out !== null) process.stdout.write(`${out}\n`);
  process.exit(code);
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  if (typeof args === 'string') {
    // Misconfigured: exit 2 is a blocking error in both clients (the message reaches the model).
    process.stderr.write(`${args}\n`);
    process.exit(2);
  }
  let event: Record<string, unknown>;
  try {
    event = JSON.parse(await readStdin()) as Record<string, unknown>;
    if (!event || typeof event !== 'object') throw new Error('not an object');
    event = normalizeEvent(args.client, event);
  } catch {
    process.stderr.write('nexus-hook: the hook input was not JSON; refusing the call.\n');
    process.exit(2);
  }
  if (event.hook_event_name === 'SessionEnd') return reportSessionEnd(args.dataDir, args.client, event).then(() => finish(null));
  const hookEvent = event.hook_event_name === 'PermissionRequest' ? 'PermissionRequest' : 'PreToolUse';
  const say = (a: HookAnswer) => finish(args.client === 'gemini' || args.client === 'opencode' ? renderTopLevel(a) : renderAnswer(args.client, hookEvent, a));
  // The client kills this process at its timeout and then lets the call through: answer first (5 s before, or
  // a tenth of a short timeout). NEXUS expires the card itself earlier still (15 s, or a quarter), so the card
  // closes and the answer is NEXUS's own "nobody approved this in time".
  const ms = args.timeoutS * 1000;
  const failsafe = setTimeout(() => say({ decision: 'deny', reason: NO_ANSWER }), ms - Math.min(5000, ms / 10));
  failsafe.unref();
  const waitMs = Math.round(ms - Math.min(15_000, ms / 4));
  const project = projectDir(args.client, process.env);
  const r = await askKernel(args.dataDir, 'externalToolUse', {
    client: args.client,
    event,
    wait_ms: waitMs,
    ...(project ? { project_dir: project } : {}),
  });
  if (r.kind === 'down') {
    if (args.whenDown === 'ask') say({ decision: 'ask', reason: 'NEXUS is not running; the client decides as it would without NEXUS.' });
    return say({ decision: 'deny', reason: NOT_RUNNING });
  }
  if (r.kind === 'error') return say({ decision: 'deny', reason: `NEXUS refused this call: ${r.message}` });
  const v = r.value as { decision?: unknown; reason?: unknown };
  if (v && (v.decision === 'allow' || v.decision === 'deny') && typeof v.reason === 'string') say({ decision: v.decision, reason: v.reason });
  say({ decision: 'deny', reason: 'NEXUS gave an answer this hook could not read, so the call did not run.' });
}

main().catch((e) => {
  process.stderr.write(`nexus-hook: ${errorMessage(e)}; refusing the call.\n`);
  process.exit(2);
});
