// electron-builder's beforePack hook: a package must carry better-sqlite3 built for ITS Electron, platform
// and arch (resources/native, from native/electron-<platform>-<arch>/). Without it the app would open an
// error box at start, so the build stops here with the command that makes it.
'use strict';
const { readFileSync } = require('node:fs');
const { join } = require('node:path');

const ARCH = ['ia32', 'x64', 'armv7l', 'arm64', 'universal'];

function nativeProblem(root, platform, arch, electronVersion) {
  const dir = join(root, 'native', `electron-${platform}-${arch}`);
  let manifest = null;
  try {
    manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
  } catch {
    manifest = null;
  }
  if (manifest && manifest.electron === electronVersion && manifest.platform === platform && manifest.arch === arch) return null;
  const found = manifest ? ` (found one for Electron ${manifest.electron}, ${manifest.platform}-${manifest.arch})` : '';
  return `No better-sqlite3 build for Electron ${electronVersion} on ${platform}-${arch} in ${dir}${found}: run \`node scripts/electron-native.mjs --platform ${platform} --arch ${arch}\` first.`;
}

async function beforePack(context) {
  const platform = context.electronPlatformName === 'mas' ? 'darwin' : context.electronPlatformName;
  const arch = typeof context.arch === 'number' ? ARCH[context.arch] : String(context.arch);
  const root = context.packager.projectDir;
  const electronVersion =
    context.packager.config.electronVersion || JSON.parse(readFileSync(require.resolve('electron/package.json', { paths: [root] }), 'utf8')).version;
  const problem = nativeProblem(root, platform, arch, electronVersion);
  if (problem) throw new Error(problem);
}

module.exports = beforePack;
module.exports.default = beforePack;
module.exports.nativeProblem = nativeProblem;
