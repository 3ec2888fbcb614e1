// How a hook row's ending reads (DESIGN §4). A stop hook accepts or asks to continue: for bash, exit 0
// accepts and exit 2 continues with stderr as the feedback; any tool may answer the JSON
// {"decision": "continue", "feedback": "…"}. Anything else that did not succeed is a hook failure.
import type { Row } from '../kernel/types.js';
import { resultText } from '../kernel/results.js';

export type HookOutcome =
  { kind: 'ack' } | { kind: 'accept' } | { kind: 'continue'; feedback: string } | { kind: 'failed'; reason: string } | { kind: 'canceled' };

const parseDecision = (text: string): { decision?: unknown; feedback?: unknown; reason?: unknown } | null => {
  const t = text.trim();
  if (!t.startsWith('{')) return null;
  try {
    const v = JSON.parse(t) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as never) : null;
  } catch {
    return null;
  }
};

const continueWith = (d: { feedback?: unknown; reason?: unknown }): HookOutcome => {
  const fb = typeof d.feedback === 'string' ? d.feedback : typeof d.reason === 'string' ? d.reason : '';
  return { kind: 'continue', feedback: fb.trim() || 'A stop hook asked for more work before this answer is final.' };
};

const failure = (row: Row): HookOutcome => {
  const detail = row.error?.detail || (row.result ? resultText(row.result) : '') || row.state;
  return { kind: 'failed', reason: `${row.error?.code ?? row.state}: ${detail}`.slice(0, 2000) };
};

export function readHookRow(row: Row, event: 'turn_start' | 'pre_compact' | 'post_compact' | 'stop'): HookOutcome {
  if (row.state === 'canceled') return { kind: 'canceled' };
  const r = row.result;
  if (event !== 'stop') return row.state === 'succeeded' ? { kind: 'ack' } : failure(row);
  const sc = r?.structuredContent;
  // bash: the exit code decides, whatever state the row ended in.
  if (sc && typeof sc.exit_code === 'number' && sc.timed_out !== true && (row.state === 'succeeded' || row.state === 'failed')) {
    if (sc.exit_code === 0) {
      // Exit 0 accepts, unless the hook printed the JSON decision to continue.
      const d = parseDecision(typeof sc.stdout === 'string' ? sc.stdout : '');
      if (d && d.decision === 'continue') return continueWith(d);
      return { kind: 'accept' };
    }
    if (sc.exit_code === 2) {
      const stderr = typeof sc.stderr === 'string' ? sc.stderr.trim() : '';
      const stdout = typeof sc.stdout === 'string' ? sc.stdout.trim() : '';
      return { kind: 'continue', feedback: stderr || stdout || 'A stop hook asked for more work before this answer is final.' };
    }
    return failure(row);
  }
  if (row.state !== 'succeeded') return failure(row);
  const d = parseDecision(r ? r.content.map((c) => c.text).join('\n') : '') ?? (sc ? (sc as never) : null);
  if (d && d.decision === 'continue') return continueWith(d);
  return { kind: 'accept' };
}
