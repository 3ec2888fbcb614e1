import { afterEach, describe, expect, it } from 'vitest';
import { captureLog, log } from './log.js';

describe('log', () => {
  let restore = () => {};
  afterEach(() => restore());

  it('writes one line per call, prefixed nexus:, with the cause as its message', () => {
    const c = captureLog();
    restore = c.restore;
    log.error('an effect of the hop gate failed', new Error('disk full'));
    log.warn('kept the launcher environment');
    log.info('ready');
    log.error('odd throw', { code: 'x' });
    expect(c.lines).toEqual([
      { level: 'error', line: 'nexus: an effect of the hop gate failed: disk full' },
      { level: 'warn', line: 'nexus: kept the launcher environment' },
      { level: 'info', line: 'nexus: ready' },
      { level: 'error', line: 'nexus: odd throw: {"code":"x"}' },
    ]);
  });
});
