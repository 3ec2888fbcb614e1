// What a CLI command may touch: its output streams. Injected so commands are testable in process.
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  /** A failure with its code (set under --json: the {ok:false,error} object goes to stdout). */
  error?(code: string, message: string): void;
}
export const processIo: CliIo = {
  out: (t) => process.stdout.write(t.endsWith('\n') ? t : `${t}\n`),
  err: (t) => process.stderr.write(t.endsWith('\n') ? t : `${t}\n`),
};
/**
 * A reader that went away (`nexus … | head`) is not an error of ours: exit quietly instead of printing an
 * EPIPE stack trace. Installed once by the command's entry.
 */
export function exitQuietlyOnClosedPipe(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'EPIPE') process.exit(0);
      throw e;
    });
  }
}

/**
 * --json: every failure is one {ok:false, error:{code, message}} object on stdout (the sentence still goes to
 * stderr for a person). A command that reports a code calls `error`; any other failure (exit ≠ 0 with nothing
 * on stdout) is reported by `finish` from its stderr text, `usage` for exit 2.
 */
export function jsonErrors(io: CliIo): { io: CliIo; finish(exit: number): void } {
  let stdout = false;
  let stderr = '';
  const wrapped: CliIo = {
    out: (t) => {
      stdout = true;
      io.out(t);
    },
    err: (t) => {
      stderr += `${t}\n`;
      io.err(t);
    },
    error: (code, message) => {
      if (stdout) return;
      stdout = true;
      io.out(JSON.stringify({ ok: false, error: { code, message } }));
    },
  };
  return {
    io: wrapped,
    finish(exit) {
      if (exit === 0 || stdout) return;
      const message =
        stderr
          .split('\n')
          .find((l) => l.trim())
          ?.replace(/^nexus: /, '') ?? 'the command failed';
      wrapped.error!(exit === 2 ? 'usage' : 'failed', message);
    },
  };
}

/** A command returns its exit code: 0 ok, 1 failure/invalid, 2 usage (DESIGN §5). */
export type CliCommand = (argv: string[], io: CliIo) => Promise<number>;
