// A desk silent for longer than silenceStopS is a stop: counted from the start until the desk is first heard,
// then from the last time it was; an error is reported until the desk is heard again.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DeskLiveness } from './liveness.js';

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(1_000_000);
});
afterEach(() => vi.useRealTimers());

describe('DeskLiveness', () => {
  it('a desk never heard is silent once silenceStopS has passed since the start', () => {
    const l = new DeskLiveness(10);
    vi.setSystemTime(1_010_000);
    expect(l.silent()).toBe(false);
    vi.setSystemTime(1_010_001);
    expect(l.silent()).toBe(true);
    expect(l.view()).toEqual({ connected: false, last_heard_at: null, last_error: null });
  });

  it('heard, it counts from then; lost, it says why until heard again', () => {
    const l = new DeskLiveness(10);
    vi.setSystemTime(1_009_000);
    l.heard();
    vi.setSystemTime(1_019_000);
    expect(l.silent()).toBe(false);
    l.lost(new Error('connection refused'));
    expect(l.view()).toEqual({ connected: false, last_heard_at: new Date(1_009_000).toISOString(), last_error: 'connection refused' });
    vi.setSystemTime(1_019_001);
    expect(l.silent()).toBe(true);
    l.heard();
    expect(l.silent()).toBe(false);
    expect(l.view()).toEqual({ connected: true, last_heard_at: new Date(1_019_001).toISOString(), last_error: null });
  });
});
