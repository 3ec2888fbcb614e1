// Which compiled better-sqlite3 this process loads. Node (the `nexus` command, `nexus serve`, the tests) uses
// the build in node_modules. Electron has another ABI, so it loads its own build, kept BESIDE the Node one
// (scripts/electron-native.mjs writes native/electron-<platform>-<arch>/; packages carry it as
// resources/native/) and handed to `new Database(path, { nativeBinding })`. Nothing is ever rebuilt in place,
// so the window and the command line can run at the same time from one checkout.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface BindingFacts {
  /** process.versions: `electron` is set in Electron's main process and under ELECTRON_RUN_AS_NODE. */
  versions: Partial<Record<string, string>>;
  execPath: string;
  platform: NodeJS.Platform;
  arch: string;
  /** The checkout (or app.asar) root: native/ of a development checkout sits here. */
  appRoot: string;
  exists(path: string): boolean;
  readText(path: string): string | null;
}

/** Where an Electron build may be: the package's resources/native/ first, then a checkout's native/. */
export function bindingCandidates(f: Pick<BindingFacts, 'execPath' | 'platform' | 'arch' | 'appRoot'>): string[] {
  const exeDir = dirname(f.execPath);
  const resources = f.platform === 'darwin' ? join(exeDir, '..', 'Resources') : join(exeDir, 'resources');
  return [join(resources, 'native'), join(f.appRoot, 'native', `electron-${f.platform}-${f.arch}`)];
}

export type BindingChoice = { kind: 'node' } | { kind: 'electron'; path: string } | { kind: 'missing'; message: string };

export function chooseBinding(f: BindingFacts): BindingChoice {
  const electron = f.versions.electron;
  if (!electron) return { kind: 'node' };
  for (const dir of bindingCandidates(f)) {
    const file = join(dir, 'better_sqlite3.node');
    if (!f.exists(file)) continue;
    let manifest: { electron?: unknown; platform?: unknown; arch?: unknown } | null = null;
    try {
      manifest = JSON.parse(f.readText(join(dir, 'manifest.json')) ?? 'null');
    } catch {
      manifest = null;
    }
    // A build for another Electron would crash on load (or worse, load): only an exact match is used.
    if (manifest && manifest.electron === electron && manifest.platform === f.platform && manifest.arch === f.arch) return { kind: 'electron', path: file };
  }
  return {
    kind: 'missing',
    message: `No build of better-sqlite3 for Electron ${electron} (${f.platform}-${f.arch}) was found; run \`node scripts/electron-native.mjs\` (npm start does it), or reinstall the NEXUS package.`,
  };
}

// Two levels above this module is the root in every layout: electron/store/ (source), dist/electron/ and
// dist/cli/ (bundles), app.asar/dist/… (packaged).
const moduleRoot = (): string => join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The options for `new Database()` in this process: {} under Node, { nativeBinding } under Electron. */
export function databaseOptions(facts: Partial<BindingFacts> = {}): { nativeBinding?: string } {
  const choice = chooseBinding({
    versions: process.versions,
    execPath: process.execPath,
    platform: process.platform,
    arch: process.arch,
    appRoot: facts.appRoot ?? (process.versions.electron ? moduleRoot() : ''),
    exists: existsSync,
    readText: (p) => {
      try {
        return readFileSync(p, 'utf8');
      } catch {
        return null;
      }
    },
    ...facts,
  });
  if (choice.kind === 'missing') throw new Error(choice.message);
  return choice.kind === 'electron' ? { nativeBinding: choice.path } : {};
}
