// What `npm start` decides, as pure functions (scripts/start.mjs does the I/O; test/start-plan.test.ts checks
// every platform branch). No child process here, no file system unless passed in.
import { join } from 'node:path';

/** The Node versions NEXUS runs on: Electron's installer (@electron/get 5) and Vite load ES modules with
 *  require(), which Node enables by default from 20.19 and 22.12. Keep in step with package.json `engines`. */
export const NODE_RANGE = '^20.19.0 || >=22.12.0';

/** null when this Node works, else the one sentence to print. */
export function nodeProblem(version) {
  const [major, minor] = String(version).replace(/^v/, '').split('.').map(Number);
  const ok = (major === 20 && minor >= 19) || (major === 22 && minor >= 12) || major >= 23;
  if (ok) return null;
  return `NEXUS needs Node 20.19 or later (22.12 or later on the 22 line), because Electron's installer loads ES modules with require(); this is Node ${String(version).replace(/^v/, '')}.`;
}

/**
 * How to run a package's command-line tool without a shell: its JavaScript entry through this Node.
 * (Node refuses to spawn a .cmd/.bat without `shell: true` since 20.12.2, so `electron-builder.cmd` or
 * `npm` cannot be spawned directly on Windows; running the .js entry works the same on every platform.)
 */
export function nodeScript(execPath, script, args = []) {
  return { command: execPath, args: [script, ...args], options: { shell: false, windowsHide: true } };
}

/** Where the Electron-ABI build of better-sqlite3 lives for this checkout: beside, never over, the Node build. */
export function electronNativeDir(root, platform, arch) {
  return join(root, 'native', `electron-${platform}-${arch}`);
}

/** True when a manifest (JSON written next to the binding) was built for this Electron, platform and arch. */
export function nativeMatches(manifest, want) {
  return Boolean(
    manifest &&
    manifest.electron === want.electron &&
    manifest.platform === want.platform &&
    manifest.arch === want.arch &&
    manifest.betterSqlite3 === want.betterSqlite3,
  );
}

/**
 * Ubuntu 23.10+ (AppArmor) forbids unprivileged user namespaces; Chromium then falls back to the SUID
 * sandbox helper and aborts unless chrome-sandbox is owned by root with mode 4755 (electron/electron#42510).
 * `restrict` is the content of /proc/sys/kernel/apparmor_restrict_unprivileged_userns (null if absent),
 * `sandbox` the stat of chrome-sandbox ({ uid, mode }) or null. Returns the one sentence to print, or null.
 */
export function sandboxProblem({ platform, restrict, sandbox, sandboxPath }) {
  if (platform !== 'linux') return null;
  if (String(restrict ?? '').trim() !== '1') return null;
  if (sandbox && sandbox.uid === 0 && (sandbox.mode & 0o7777) === 0o4755) return null;
  return (
    'This Linux restricts unprivileged user namespaces (AppArmor), so Electron aborts unless its sandbox helper is root-owned: ' +
    `run \`sudo chown root:root ${sandboxPath} && sudo chmod 4755 ${sandboxPath}\` once for development, or install the NEXUS .deb package, which needs no such step.`
  );
}

/**
 * The whole decision. Inputs are facts gathered by start.mjs; the answer is one of
 *  - { action: 'refuse', message }              this Node cannot run NEXUS
 *  - { action: 'browser', message }             no usable Electron here: open the window in the browser
 *  - { action: 'build-native' }                 build the Electron-ABI SQLite binding first, then ask again
 *  - { action: 'electron' }                     launch the window
 */
export function startPlan({ nodeVersion, electron, sandbox, native }) {
  const bad = nodeProblem(nodeVersion);
  if (bad) return { action: 'refuse', message: bad };
  if (!electron.path) return { action: 'browser', message: `no Electron binary here (${electron.why})` };
  if (sandbox) return { action: 'browser', message: sandbox };
  if (native === 'missing') return { action: 'build-native' };
  if (native === 'failed') {
    return { action: 'browser', message: 'the Electron build of better-sqlite3 could not be made (see above; it needs the network once, or a C++ toolchain)' };
  }
  return { action: 'electron' };
}
