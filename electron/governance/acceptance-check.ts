// A delegated task's acceptance check: run as a KERNEL row (bash in the recipient's workspace, through the
// stage like any other call), its outcome kept as evidence: the command, its exit code and the tail of its output.
import type { Row, Run } from '../kernel/types.js';
import type { Evidence, Task } from '../store/queries/tasks.js';
import type { Governance } from './service.js';

const OUTPUT_TAIL = 4000;
const DEFAULT_CHECK_TIMEOUT_S = 120;

export async function runAcceptanceCheck(gov: Pick<Governance, 'now' | 'kernel'>, task: Task, run: Run): Promise<Evidence> {
  const started = gov.now();
  const timeout_s = task.check_timeout_s ?? DEFAULT_CHECK_TIMEOUT_S;
  let row: Row;
  try {
    row = gov.kernel.submitRow(run.id, { tool: 'bash', input: { command: task.check_command, timeout_s }, origin: 'kernel' });
    row = await gov.kernel.waitRow(row.id);
  } catch (e) {
    return {
      command: task.check_command,
      exit_code: null,
      passed: false,
      output: `The check could not run: ${(e as Error).message}`,
      duration_ms: gov.now() - started,
      at: gov.now(),
      row_id: null,
    };
  }
  const sc = (row.result?.structuredContent ?? {}) as { exit_code?: unknown; stdout?: unknown; stderr?: unknown; duration_ms?: unknown };
  const exit = typeof sc.exit_code === 'number' ? sc.exit_code : null;
  let output =
    typeof sc.stdout === 'string' || typeof sc.stderr === 'string'
      ? `${sc.stdout ?? ''}${sc.stderr ? `${sc.stdout ? '\n' : ''}${sc.stderr}` : ''}`
      : (row.result?.content.map((c) => c.text).join('\n') ?? '');
  if (row.state !== 'succeeded' && row.state !== 'failed') output = `${output}\n[check row ${row.state}: ${row.error?.detail ?? ''}]`.trim();
  if (output.length > OUTPUT_TAIL) output = `…${output.slice(-OUTPUT_TAIL)}`;
  return {
    command: task.check_command,
    exit_code: exit,
    passed: row.state === 'succeeded' && exit === 0,
    output,
    duration_ms: typeof sc.duration_ms === 'number' ? sc.duration_ms : gov.now() - started,
    at: gov.now(),
    row_id: row.id,
  };
}

export const evidenceView = (e: Evidence) => ({
  command: e.command,
  exit_code: e.exit_code,
  passed: e.passed,
  output: e.output,
  duration_ms: e.duration_ms,
  at: new Date(e.at).toISOString(),
});
