// Types of build-cli.mjs for the tests that build a private copy of the CLI.
export declare const CLI_GROUPS: readonly string[];
export declare const CJS_BANNER: { js: string };
export declare const ESM_BANNER: { js: string };
export declare function buildCli(options: {
  root: string;
  outDir: string;
  define?: Record<string, string>;
  sourcemap?: boolean;
  logLevel?: 'silent' | 'warning' | 'error' | 'info';
}): Promise<void>;
