import { afterEach, describe, expect, it, vi } from 'vitest';
import { flushHeld, graceMs, holdAnswer, undoAnswer, useGrace } from './answer-grace.js';

afterEach(() => {
  flushHeld();
  vi.useRealTimers();
});

describe('the undo grace', () => {
  it('sends a held answer when its grace ends, and shows it as held until then', async () => {
    vi.useFakeTimers();
    const sent = holdAnswer('inbox_1', 'Approved · a', 3000);
    expect(useGrace.getState().held.map((h) => h.id)).toEqual(['inbox_1']);
    vi.advanceTimersByTime(2999);
    expect(useGrace.getState().held).toHaveLength(1);
    vi.advanceTimersByTime(1);
    await expect(sent).resolves.toBe(true);
    expect(useGrace.getState().held).toEqual([]);
  });

  it('Undo takes back the newest held answer, and only that one', async () => {
    vi.useFakeTimers();
    const first = holdAnswer('inbox_1', 'Approved · a', 3000);
    const second = holdAnswer('inbox_2', 'Denied · b', 3000);
    expect(undoAnswer()).toBe(true);
    await expect(second).resolves.toBe(false);
    expect(useGrace.getState().held.map((h) => h.id)).toEqual(['inbox_1']);
    vi.advanceTimersByTime(3000);
    await expect(first).resolves.toBe(true);
    expect(undoAnswer()).toBe(false);
  });

  it('a grace of 0 sends at once, and closing the window sends what is held', async () => {
    await expect(holdAnswer('inbox_3', 'x', 0)).resolves.toBe(true);
    expect(useGrace.getState().held).toEqual([]);
    const held = holdAnswer('inbox_4', 'x', 10_000);
    flushHeld();
    await expect(held).resolves.toBe(true);
  });

  it('defaults to 3 seconds when nothing (or nonsense) is stored', () => {
    expect(graceMs()).toBe(3000);
  });
});
