// The electron-builder config is checked against electron-builder's own JSON schema (packages are built on
// a machine that can download Electron; here we make sure the config would be accepted), and the icons exist.
import { describe, it, expect } from 'vitest';
import { readFileSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..', '..');
const require = createRequire(import.meta.url);

describe('packaging (electron-builder.yml)', () => {
  const config = (require('js-yaml') as { load(s: string): Record<string, any> }).load(readFileSync(join(root, 'electron-builder.yml'), 'utf8'));

  it('validates against electron-builder\'s schema', () => {
    const Ajv = require('ajv');
    const schema = JSON.parse(readFileSync(require.resolve('app-builder-lib/scheme.json'), 'utf8'));
    const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);
    expect(validate(config), JSON.stringify(validate.errors)).toBe(true);
  });

  it('targets Linux AppImage + deb, macOS dmg, Windows nsis, packs dist/** in asar with SQLite unpacked', () => {
    expect(config.appId).toBe('app.nexus.desktop');
    expect(config.linux.target).toEqual(['AppImage', 'deb']);
    expect(config.mac.target).toBe('dmg');
    expect(config.win.target).toBe('nsis');
    expect(config.asar).toBe(true);
    expect(config.asarUnpack.join()).toContain('better-sqlite3');
    expect(config.files).toContain('dist/**/*');
  });

  it('has real icons: a 512x512 PNG and a Windows .ico', () => {
    const png = readFileSync(join(root, 'build', 'icon.png'));
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    expect(png.readUInt32BE(16)).toBe(512);
    expect(png.readUInt32BE(20)).toBe(512);
    expect(existsSync(join(root, 'build', 'icon.ico'))).toBe(true);
  });
});
