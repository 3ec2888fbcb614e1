// The last resort of `nexus serve`: an error no guard caught is logged and NEXUS keeps serving; errors that
// repeat too fast mean the process is broken, and it shuts down cleanly (once).
import { describe, expect, it } from 'vitest';
import { EventEmitter } from 'node:events';
import { installLastResort, MAX_FATAL, WINDOW_MS } from './last-resort.js';

function setup() {
  const target = new EventEmitter();
  const lines: string[] = [];
  let broken = 0;
  let t = 0;
  const uninstall = installLastResort({ log: (l) => lines.push(l), onBroken: () => broken++, now: () => t, target: target as never });
  return { target, lines, broken: () => broken, tick: (ms: number) => (t += ms), uninstall };
}

describe('last resort', () => {
  it('logs an uncaught exception and an unhandled rejection with their stack, and keeps serving', () => {
    const s = setup();
    s.target.emit('uncaughtException', new Error('a socket event nobody handled'));
    s.target.emit('unhandledRejection', 'a reply to a closed socket');
    expect(s.lines[0]).toMatch(/^nexus: internal error \(still serving\): Error: a socket event nobody handled\n\s+at /);
    expect(s.lines[1]).toBe('nexus: unhandled rejection (still serving): a reply to a closed socket');
    expect(s.broken()).toBe(0);
  });

  it(`shuts down cleanly, once, when ${MAX_FATAL} errors come within the window; spaced errors never do`, () => {
    const s = setup();
    for (let i = 0; i < MAX_FATAL * 3; i++) {
      s.target.emit('uncaughtException', new Error(`spaced ${i}`));
      s.tick(Math.ceil(WINDOW_MS / (MAX_FATAL - 1)) + 1); // never MAX_FATAL within one window
    }
    expect(s.broken()).toBe(0);
    for (let i = 0; i < MAX_FATAL * 2; i++) s.target.emit('unhandledRejection', new Error(`burst ${i}`));
    expect(s.broken()).toBe(1);
    expect(s.lines).toContain(`nexus: ${MAX_FATAL} internal errors within ${WINDOW_MS / 1000} s: shutting down cleanly.`);
  });

  it('removes its handlers when asked', () => {
    const s = setup();
    s.uninstall();
    expect(s.target.listenerCount('uncaughtException')).toBe(0);
    expect(s.target.listenerCount('unhandledRejection')).toBe(0);
  });
});
