// The one place the kernel's background failures are written (a listener that threw, an effect after a commit
// that failed, a sweep that could not run). Lines go to stderr, prefixed `nexus:`, so `nexus serve` and the
// Electron shell's log both read them; NEXUS_LOG=quiet keeps all but errors out, and tests capture lines with
// `captureLog()` instead of patching console.
import { errorMessage } from '../shared/errors.js';

export type LogLevel = 'error' | 'warn' | 'info';
type Sink = (level: LogLevel, line: string) => void;

const stderrSink: Sink = (level, line) => {
  if (level !== 'error' && process.env.NEXUS_LOG === 'quiet') return;
  process.stderr.write(`${line}\n`);
};
let sink: Sink = stderrSink;

/** One line: the sentence, then what was thrown (its message, not its stack: a log is read by people). */
function write(level: LogLevel, sentence: string, cause?: unknown): void {
  const text = `nexus: ${sentence}${cause === undefined ? '' : `: ${errorMessage(cause)}`}`;
  try {
    sink(level, text);
  } catch {
    /* a log that cannot be written must not take down what was logging */
  }
}

export const log = {
  error: (sentence: string, cause?: unknown) => write('error', sentence, cause),
  warn: (sentence: string, cause?: unknown) => write('warn', sentence, cause),
  info: (sentence: string) => write('info', sentence),
};

/** Collect log lines in memory (tests), until the returned `restore()` puts stderr back. */
export function captureLog(): { lines: { level: LogLevel; line: string }[]; restore(): void } {
  const lines: { level: LogLevel; line: string }[] = [];
  sink = (level, line) => void lines.push({ level, line });
  return { lines, restore: () => void (sink = stderrSink) };
}
