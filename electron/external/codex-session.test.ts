// The policy of a Codex turn, read from its session's rollout file: the turn's own turn_context (a later turn's
// does not answer for it), read again as Codex appends, a half-written line left for the next call, and only a
// file named for this session.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appendFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { codexTurnPolicy } from './codex-session.js';
import { world, type World } from '../../test/support/world.js';

let w: World;
let dir: string;
let file: string;
beforeEach(() => {
  w = world();
  dir = w.dir('rollout');
  file = join(dir, 'rollout-2026-12-02T00-00-00-s1.jsonl');
});
afterEach(() => w.cleanup());

const line = (turn_id: string, type: string) =>
  `${JSON.stringify({ timestamp: 'x', type: 'turn_context', payload: { turn_id, sandbox_policy: { type }, file_system_sandbox_policy: { kind: 'restricted', entries: [] } } })}\n`;
const policy = (turn_id?: string, transcript_path: string | null = file) =>
  codexTurnPolicy({ session_id: 's1', transcript_path, ...(turn_id ? { turn_id } : {}) });

describe('codexTurnPolicy', () => {
  it("answers with the turn's own turn_context, and sees what Codex appends later", () => {
    writeFileSync(file, `${line('t1', 'workspace-write')}{"type":"response_item","payload":{}}\n`);
    expect(policy('t1')).toMatchObject({ sandbox_policy: { type: 'workspace-write' } });
    appendFileSync(file, line('t2', 'danger-full-access'));
    expect(policy('t2')).toMatchObject({ sandbox_policy: { type: 'danger-full-access' } });
    expect(policy('t1')).toMatchObject({ sandbox_policy: { type: 'workspace-write' } });
    expect(policy()).toMatchObject({ turn_id: 't2' });
  });

  it('a line Codex is still writing is read once it is whole', () => {
    const whole = line('t1', 'read-only');
    writeFileSync(file, whole.slice(0, 40));
    expect(policy('t1')).toMatch(/cannot see which sandbox/);
    appendFileSync(file, whole.slice(40));
    expect(policy('t1')).toMatchObject({ sandbox_policy: { type: 'read-only' } });
  });

  it('no file, a file of another session, a relative path or a link: NEXUS cannot see the sandbox', () => {
    writeFileSync(file, line('t1', 'workspace-write'));
    expect(policy('t1', null)).toMatch(/cannot see which sandbox this session runs in/);
    expect(policy('t1', join(dir, 'nope-s1.jsonl'))).toMatch(/cannot see/);
    expect(codexTurnPolicy({ session_id: 's2', transcript_path: file, turn_id: 't1' })).toMatch(/cannot see/);
    expect(policy('t1', 'rollout-s1.jsonl')).toMatch(/cannot see/);
    const link = join(dir, 'link-s1.jsonl');
    symlinkSync(file, link);
    expect(policy('t1', link)).toMatch(/cannot see/);
  });
});
