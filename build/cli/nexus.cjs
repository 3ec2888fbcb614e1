// Entry of the packaged `nexus` command, run by the app's binary as Node (see resources/cli/nexus). It sits
// outside app.asar so that the binary can start it by path; the command line itself is the app's
// dist/cli/nexus.cjs, required from app.asar (or app/ when a package was built without asar).
'use strict';
const { existsSync } = require('node:fs');
const { join } = require('node:path');

const resources = join(__dirname, '..');
const app = [join(resources, 'app.asar'), join(resources, 'app')].find((dir) => existsSync(join(dir, 'dist', 'cli', 'nexus.cjs')));
if (!app) {
  process.stderr.write(`nexus: the NEXUS app was not found in ${resources}.\n`);
  process.exit(2);
}
const { main } = require(join(app, 'dist', 'cli', 'nexus.cjs'));
Promise.resolve(main(process.argv.slice(2))).then(
  (code) => {
    process.exitCode = code;
  },
  (e) => {
    process.stderr.write(`nexus: ${e && e.message ? e.message : e}\n`);
    process.exitCode = 1;
  },
);
