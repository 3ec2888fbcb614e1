#!/usr/bin/env node
// The `nexus` command. The code lives in electron/cli/ and is compiled by `npm run build` (and `prepare`).
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const compiled = fileURLToPath(new URL('../dist/cli/nexus.mjs', import.meta.url));
if (!existsSync(compiled)) {
  process.stderr.write('nexus: not built yet. Run `npm run build` in the NEXUS folder first.\n');
  process.exit(2);
}
const { main } = await import(pathToFileURL(compiled).href);
process.exitCode = await main(process.argv.slice(2));
