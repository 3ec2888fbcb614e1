import { describe, expect, it } from 'vitest';
import { RecentChains } from './recent-chains.js';

const clock = () => {
  let t = Date.UTC(2026, 10, 30);
  return { now: () => (t += 1000) };
};
const hop = (
  n: number,
  agent: string,
  verdict: 'allowed' | 'awaiting_approval' | 'approved' | 'refused' | 'denied' = 'allowed',
  code?: 'chain_depth_exceeded',
) => ({
  hop: n,
  agent,
  action: 'bash',
  target: `cmd ${n}`,
  verdict,
  code,
});

describe('Recent chains (seed 003 "Where to see what a chain did")', () => {
  it('"A run appears only once it has more than one recorded hop"', () => {
    const r = new RecentChains(clock().now);
    r.recordHop('c1', { ...hop(1, 'lead'), action: 'delegate_task', target: 'mid' });
    expect(r.list()).toEqual([]);
    r.recordHop('c1', hop(2, 'mid'));
    expect(r.list()).toHaveLength(1);
  });
  it('a listed hop holds its own fields only: no key left undefined, nothing else the record carried (its chain)', () => {
    const r = new RecentChains(clock().now);
    r.recordHop('c1', hop(1, 'lead'));
    r.recordHop('c1', { ...hop(2, 'mid', 'denied', 'chain_depth_exceeded'), request_id: undefined, chain_id: 'c1' } as Parameters<
      RecentChains['recordHop']
    >[1]);
    r.recordHop('c1', { ...hop(3, 'mid', 'awaiting_approval'), request_id: 'req1' });
    const [listed] = r.list();
    expect(listed.hops.map((h) => Object.keys(h).sort())).toEqual([
      ['action', 'agent', 'at', 'hop', 'target', 'verdict'],
      ['action', 'agent', 'at', 'code', 'hop', 'target', 'verdict'],
      ['action', 'agent', 'at', 'hop', 'request_id', 'target', 'verdict'],
    ]);
    expect(listed.hops[2]).toMatchObject({ hop: 3, verdict: 'awaiting_approval', request_id: 'req1' });
  });
  it('"lists multi-agent runs, most recently active first"', () => {
    const r = new RecentChains(clock().now);
    for (const c of ['c1', 'c2', 'c3']) {
      r.recordHop(c, hop(1, 'lead'));
      r.recordHop(c, hop(2, 'mid'));
    }
    expect(r.list().map((c) => c.chain_id)).toEqual(['c3', 'c2', 'c1']);
    r.recordHop('c1', hop(3, 'mid'));
    expect(r.list().map((c) => c.chain_id)).toEqual(['c1', 'c3', 'c2']);
  });
  it('"the participating agents in the order they acted, how many hops the run took"', () => {
    const r = new RecentChains(clock().now);
    r.recordHop('c', hop(1, 'lead'));
    r.recordHop('c', hop(2, 'mid'));
    r.recordHop('c', hop(3, 'leaf'));
    r.recordHop('c', hop(4, 'mid'));
    const [c] = r.list();
    expect(c.agents).toEqual(['lead', 'mid', 'leaf']);
    expect(c.hops.map((h) => h.hop)).toEqual([1, 2, 3, 4]);
    expect(c.hops[2]).toMatchObject({ agent: 'leaf', action: 'bash', target: 'cmd 3', verdict: 'allowed' });
  });
  it('"Refusals are listed exactly like admissions": a denial with its code, a refusal', () => {
    const r = new RecentChains(clock().now);
    r.recordHop('c', hop(1, 'lead'));
    r.recordHop('c', hop(2, 'mid', 'denied', 'chain_depth_exceeded'));
    r.recordHop('c', hop(3, 'mid', 'refused'));
    const [c] = r.list();
    expect(c.hops[1]).toMatchObject({ verdict: 'denied', code: 'chain_depth_exceeded' });
    expect(c.hops[2]).toMatchObject({ verdict: 'refused' });
    expect(c.hops[2].code).toBeUndefined();
  });
  it('"A hop that is waiting on you appears there while it waits, and switches to your answer the moment you give it"', () => {
    const r = new RecentChains(clock().now);
    r.recordHop('c', hop(1, 'lead'));
    r.recordHop('c', { ...hop(2, 'mid', 'awaiting_approval'), request_id: 'abc' });
    expect(r.list()[0].hops[1]).toMatchObject({ verdict: 'awaiting_approval', request_id: 'abc' });
    expect(r.setVerdict('c', 2, 'approved')).toBe(true);
    expect(r.list()[0].hops[1]).toMatchObject({ verdict: 'approved', request_id: 'abc' });
  });
  it('"the list is bounded and covers the current run of the app"', () => {
    const r = new RecentChains(clock().now, () => {}, 50);
    for (let i = 0; i < 60; i++) {
      r.recordHop(`c${i}`, hop(1, 'lead'));
      r.recordHop(`c${i}`, hop(2, 'mid'));
    }
    const list = r.list();
    expect(list).toHaveLength(50);
    expect(list[0].chain_id).toBe('c59');
    expect(list[49].chain_id).toBe('c10');
  });
  it('lone hand-offs never push a composed chain out while their own next hop is pending', () => {
    const r = new RecentChains(clock().now, () => {}, 3);
    r.recordHop('big', hop(1, 'lead'));
    r.recordHop('big', hop(2, 'mid'));
    for (let i = 0; i < 5; i++) r.recordHop(`lone${i}`, hop(1, 'lead'));
    r.recordHop('lone4', hop(2, 'mid'));
    expect(r.list().map((c) => c.chain_id)).toEqual(['lone4', 'big']);
  });
  it('a burst of hundreds of concurrent chains (every hop 1 before any hop 2) keeps the most recent chains and never loses one to its own later hop', () => {
    for (const n of [51, 52, 300, 2500]) {
      const r = new RecentChains(clock().now, () => {}, 50);
      for (let i = 0; i < n; i++) r.recordHop(`c${i}`, { ...hop(1, 'lead'), action: 'message_agent', target: 'leaf' });
      // Their hop 2 arrives in another order (concurrent runs finish in any order).
      const order = Array.from({ length: n }, (_, i) => (i * 7919) % n);
      for (const i of order) r.recordHop(`c${i}`, hop(2, 'leaf'));
      const list = r.list();
      expect(list, `burst of ${n}`).toHaveLength(Math.min(n, 50));
      expect(list.map((c) => c.chain_id)).toEqual(
        order
          .slice(-50)
          .reverse()
          .map((i) => `c${i}`),
      );
      expect(list.every((c) => c.hops.some((h) => h.hop === 2))).toBe(true);
      expect(r.size).toBeLessThanOrEqual(50 + r.pendingLimit);
    }
  });
  it('chains that keep the hop 1 they were given list it; the bound on waiting hand-offs is separate from the list', () => {
    const r = new RecentChains(clock().now, () => {}, 3, 5);
    for (let i = 0; i < 8; i++) r.recordHop(`c${i}`, hop(1, 'lead'));
    for (let i = 0; i < 8; i++) r.recordHop(`c${i}`, hop(2, 'mid'));
    expect(r.size).toBeLessThanOrEqual(3 + 5);
    const list = r.list();
    expect(list.map((c) => c.chain_id)).toEqual(['c7', 'c6', 'c5']);
    expect(list[0].hops.map((h) => h.hop)).toEqual([1, 2]); // hop 1 was still remembered
  });
  it('"Clearing it forgets the runs shown; it stops nothing and changes no limit"', () => {
    let changes = 0;
    const r = new RecentChains(clock().now, () => changes++);
    r.recordHop('c', hop(1, 'lead'));
    r.recordHop('c', hop(2, 'mid'));
    const before = changes;
    expect(r.clear()).toBe(1);
    expect(r.list()).toEqual([]);
    expect(changes).toBe(before + 1);
  });
});
