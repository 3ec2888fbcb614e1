// The electron-builder config is checked against electron-builder's own JSON schema (packages are built on
// a machine that can download Electron; here we make sure the config would be accepted), and the icons exist.
// scripts/package-dry-run.mjs goes further (packs the Linux app directory offline); it is slow, so not here.
import { describe, it, expect } from 'vitest';
import { readFileSync, existsSync, statSync, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { world } from '../../test/support/world.js';

const root = join(import.meta.dirname, '..', '..');
const require = createRequire(import.meta.url);
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

/** The parts of electron-builder.yml the assertions read into; everything else stays unknown. */
type Section = Record<string, unknown>;
type BuilderConfig = Section & { linux: Section; mac: Section; win: Section; deb: { fpm: string[] }; files: unknown[]; extraResources: unknown[] };

describe('packaging (electron-builder.yml)', () => {
  const config = (require('js-yaml') as { load(s: string): BuilderConfig }).load(readFileSync(join(root, 'electron-builder.yml'), 'utf8'));

  it("validates against electron-builder's schema", () => {
    const Ajv = require('ajv');
    const schema = JSON.parse(readFileSync(require.resolve('app-builder-lib/scheme.json'), 'utf8'));
    const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);
    expect(validate(config), JSON.stringify(validate.errors)).toBe(true);
  });

  it('declares what this test and the packaging scripts use', () => {
    for (const dep of ['js-yaml', 'ajv', 'app-builder-lib', 'electron-builder', '@electron/rebuild', '@electron/asar'])
      expect(pkg.devDependencies[dep], dep).toMatch(/^\d/);
  });

  it('targets Linux AppImage + deb, macOS dmg, Windows nsis, packs dist/** in asar', () => {
    expect(config.appId).toBe('app.nexus.desktop');
    expect(config.linux.target).toEqual(['AppImage', 'deb']);
    expect(config.mac.target).toBe('dmg');
    expect(config.win.target).toBe('nsis');
    expect(config.asar).toBe(true);
    expect(config.files).toContain('dist/**/*');
  });

  it('the deb can be built: package.json has the homepage, author and description electron-builder requires', () => {
    expect(pkg.homepage).toMatch(/^https:\/\//);
    expect(pkg.author.email).toMatch(/@/);
    expect(pkg.description.length).toBeGreaterThan(10);
    expect(config.linux.maintainer).toMatch(/<.+@.+>/);
  });

  it('never rebuilds node_modules: the Electron build of better-sqlite3 ships as resources/native', () => {
    expect(config.npmRebuild).toBe(false);
    expect(config.extraResources).toContainEqual(expect.objectContaining({ from: 'native/electron-${platform}-${arch}', to: 'native' }));
    expect(pkg.scripts.dist).toMatch(/scripts\/electron-native\.mjs.*electron-builder/);
  });

  it('packing stops, with the command to run, when the Electron build of better-sqlite3 for the target is missing', async () => {
    expect(config.beforePack).toBe('scripts/before-pack.cjs');
    const hook = require(join(root, 'scripts', 'before-pack.cjs'));
    const w = world();
    const dir = w.dir('pack');
    try {
      const ctx = (arch: number) => ({ electronPlatformName: 'linux', arch, packager: { projectDir: dir, config: { electronVersion: '45.5.0' } } });
      await expect(hook(ctx(3))).rejects.toThrow(
        /No better-sqlite3 build for Electron 45\.5\.0 on linux-arm64 .*node scripts\/electron-native\.mjs --platform linux --arch arm64/,
      );
      mkdirSync(join(dir, 'native', 'electron-linux-x64'), { recursive: true });
      writeFileSync(join(dir, 'native', 'electron-linux-x64', 'manifest.json'), JSON.stringify({ electron: '44.0.0', platform: 'linux', arch: 'x64' }));
      await expect(hook(ctx(1))).rejects.toThrow(/found one for Electron 44\.0\.0/);
      writeFileSync(join(dir, 'native', 'electron-linux-x64', 'manifest.json'), JSON.stringify({ electron: '45.5.0', platform: 'linux', arch: 'x64' }));
      await expect(hook(ctx(1))).resolves.toBeUndefined();
    } finally {
      await w.cleanup();
    }
  });

  it('the window is nexus-desktop; every package ships the nexus command (and the deb puts it on PATH)', () => {
    expect(config.linux.executableName).toBe('nexus-desktop');
    expect(config.executableName).toBeUndefined(); // top-level would rename NEXUS.app and the Windows install folder
    expect(config.extraResources).toContainEqual({ from: 'build/cli', to: 'cli' });
    for (const f of ['nexus', 'nexus.cmd', 'nexus.cjs']) expect(existsSync(join(root, 'build', 'cli', f)), f).toBe(true);
    expect(statSync(join(root, 'build', 'cli', 'nexus')).mode & 0o111).not.toBe(0);
    expect(readFileSync(join(root, 'build', 'cli', 'nexus'), 'utf8')).toContain('ELECTRON_RUN_AS_NODE=1 exec "$app"');
    expect(readFileSync(join(root, 'build', 'cli', 'nexus.cmd'), 'utf8')).toMatch(/ELECTRON_RUN_AS_NODE=1[\s\S]*\\NEXUS\.exe"/);
    expect(config.deb.fpm).toContain('build/linux/nexus=/usr/bin/nexus');
    expect(readFileSync(join(root, 'build', 'linux', 'nexus'), 'utf8')).toContain('exec /opt/NEXUS/resources/cli/nexus "$@"');
  });

  it('fuses: no NODE_OPTIONS, no --inspect, asar only with integrity, no file:// privileges; RunAsNode kept for the CLI', () => {
    expect(config.electronFuses).toEqual({
      runAsNode: true,
      enableCookieEncryption: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      grantFileProtocolExtraPrivileges: false,
    });
  });

  it('signing and notarization run with credentials and are skipped cleanly without them', () => {
    expect(config.forceCodeSigning).toBe(false);
    expect(config.mac.notarize).toBe(true);
    expect(config.mac.hardenedRuntime).toBe(true);
    // electron-builder builds notarization options only from APPLE_* variables; none set means "skip".
    const { MacTargetHelper } = require('app-builder-lib/out/mac/MacTargetHelper.js');
    const saved = { ...process.env };
    try {
      for (const k of Object.keys(process.env)) if (k.startsWith('APPLE_')) delete process.env[k];
      expect(MacTargetHelper.getNotarizeOptions('/x/NEXUS.app')).toBeUndefined();
      Object.assign(process.env, { APPLE_API_KEY: '/k.p8', APPLE_API_KEY_ID: 'K', APPLE_API_ISSUER: 'I' });
      expect(MacTargetHelper.getNotarizeOptions('/x/NEXUS.app')).toMatchObject({ appPath: '/x/NEXUS.app' });
    } finally {
      for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
    }
  });

  it('has real icons: a 512x512 PNG and a Windows .ico', () => {
    const png = readFileSync(join(root, 'build', 'icon.png'));
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    expect(png.readUInt32BE(16)).toBe(512);
    expect(png.readUInt32BE(20)).toBe(512);
    expect(existsSync(join(root, 'build', 'icon.ico'))).toBe(true);
  });
});
