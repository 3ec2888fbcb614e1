import { describe, expect, it } from 'vitest';
import { defaultDataDir, resolveDataDir } from './data-dir.js';

describe('data dir: --data-dir, else NEXUS_DATA_DIR, else the platform app-data folder', () => {
  it('--data-dir wins, then NEXUS_DATA_DIR', () => {
    expect(resolveDataDir('/tmp/a', { NEXUS_DATA_DIR: '/tmp/b' })).toBe('/tmp/a');
    expect(resolveDataDir(undefined, { NEXUS_DATA_DIR: '/tmp/b' })).toBe('/tmp/b');
  });
  it('platform folders', () => {
    expect(defaultDataDir({}, 'linux', '/home/u')).toBe('/home/u/.config/NEXUS');
    expect(defaultDataDir({ XDG_CONFIG_HOME: '/x' }, 'linux', '/home/u')).toBe('/x/NEXUS');
    expect(defaultDataDir({}, 'darwin', '/Users/u')).toBe('/Users/u/Library/Application Support/NEXUS');
    expect(defaultDataDir({ APPDATA: 'C:/Users/u/AppData/Roaming' }, 'win32', 'C:/Users/u')).toMatch(/AppData[\\/]Roaming[\\/]NEXUS$/);
  });
});
