import { describe, it, expect } from 'vitest';
import { chromiumProfileDir } from './chromium-profile.js';
import { defaultDataDir } from '../store/data-dir.js';

describe("Chromium's profile folder", () => {
  it('is never the data dir nor inside it, on any platform', () => {
    const cases = [
      { platform: 'linux', env: {}, home: '/home/u' },
      { platform: 'linux', env: { XDG_CACHE_HOME: '/c', XDG_CONFIG_HOME: '/x' }, home: '/home/u' },
      { platform: 'darwin', env: {}, home: '/Users/u' },
      { platform: 'win32', env: { APPDATA: 'C:\\Users\\u\\AppData\\Roaming', LOCALAPPDATA: 'C:\\Users\\u\\AppData\\Local' }, home: 'C:\\Users\\u' },
    ] as const;
    for (const c of cases) {
      const profile = chromiumProfileDir(c.platform, c.env, c.home);
      const data = defaultDataDir(c.env, c.platform, c.home);
      expect(profile.startsWith(data), `${c.platform}: ${profile} vs ${data}`).toBe(false);
    }
  });

  it('sits with the caches: ~/.cache, ~/Library/Caches, %LOCALAPPDATA% (not roaming)', () => {
    expect(chromiumProfileDir('linux', {}, '/home/u')).toBe('/home/u/.cache/NEXUS/chromium');
    expect(chromiumProfileDir('darwin', {}, '/Users/u')).toBe('/Users/u/Library/Caches/NEXUS/Chromium');
    expect(chromiumProfileDir('win32', { LOCALAPPDATA: 'C:\\L' }, 'C:\\Users\\u')).toBe('C:\\L\\NEXUS\\Chromium');
    expect(chromiumProfileDir('win32', {}, 'C:\\Users\\u')).toBe('C:\\Users\\u\\AppData\\Local\\NEXUS\\Chromium');
  });
});
