// What a CLI command may touch: its output streams. Injected so commands are testable in process.
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
}
export const processIo: CliIo = {
  out: (t) => process.stdout.write(t.endsWith('\n') ? t : `${t}\n`),
  err: (t) => process.stderr.write(t.endsWith('\n') ? t : `${t}\n`),
};
/** A command returns its exit code: 0 ok, 1 failure/invalid, 2 usage (DESIGN §5). */
export type CliCommand = (argv: string[], io: CliIo) => Promise<number>;
