import { describe, it, expect } from 'vitest';
import { EventEmitter } from 'node:events';
import { createNotificationRegistry } from './notification-registry.js';

class FakeNote extends EventEmitter {}

describe('notification registry', () => {
  it('holds each notification until clicked, closed or failed; a click still reaches the window', () => {
    const reg = createNotificationRegistry<FakeNote>();
    let focused = 0;
    const [a, b, c] = [new FakeNote(), new FakeNote(), new FakeNote()];
    for (const n of [a, b, c]) reg.keep(n, () => focused++);
    expect(reg.size).toBe(3);
    a.emit('click');
    expect(focused).toBe(1);
    expect(reg.size).toBe(2);
    b.emit('close');
    c.emit('failed');
    expect(reg.size).toBe(0);
    expect(focused).toBe(1);
  });

  it('is bounded: past the limit the oldest is released', () => {
    const reg = createNotificationRegistry<FakeNote>(2);
    for (let i = 0; i < 5; i++) reg.keep(new FakeNote(), () => {});
    expect(reg.size).toBe(2);
  });
});
