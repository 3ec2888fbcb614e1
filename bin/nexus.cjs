#!/usr/bin/env node
// The `nexus` command. The code lives in electron/cli/ and is compiled by `npm run build` (and `prepare`).
// CommonJS, so a client command starts without Node's ES module loader (scripts/build-cli.mjs).
'use strict';
const { existsSync } = require('node:fs');
const { join } = require('node:path');

const compiled = join(__dirname, '..', 'dist', 'cli', 'main.cjs');
if (!existsSync(compiled)) {
  process.stderr.write('nexus: not built yet. Run `npm run build` in the NEXUS folder first.\n');
  process.exit(2);
}
require(compiled)
  .main(process.argv.slice(2))
  .then((code) => {
    process.exitCode = code;
  });
