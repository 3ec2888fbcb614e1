// Three of seed 003's smaller clauses (issue 23 item 14), each against the real kernel with scripted models
// over real HTTP: an allowlisted name that is no agent is warned about at the API (every door sets through
// it), a stop hook asking for more work is recorded as its answer, and a failed read says a plain sentence.
import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { ScriptedRequest } from '../../../test/support/scripted-model.js';
import { last, queue, scenario, type Scenario } from '../../../test/support/scenarios.js';
import { saveAgent } from '../../agents/profiles.js';
import { SettingsSetView } from '../../../shared/api/orchestration.js';
import { main } from '../../cli/main.js';
import { startSocketDoor } from '../../doors/socket.js';

let s: Scenario | null = null;
afterEach(async () => {
  await s?.cleanup();
  s = null;
});

describe('an allowlist naming an agent that does not exist', () => {
  it('A,Nobody is stored with a warning that names Nobody only, from the API every door uses', async () => {
    s = await scenario({ A: queue([{ text: 'hi' }]) });
    const r = SettingsSetView.parse(await s.call('settingsSet', { key: 'orchestration.allowlist', value: ['A', 'Nobody'] }));
    expect(r['orchestration.allowlist']).toEqual(['A', 'Nobody']);
    expect(r.warnings).toEqual([{ key: 'orchestration.allowlist', message: expect.stringMatching(/^no agent named "Nobody" exists yet/) }]);
    const clean = SettingsSetView.parse(await s.call('settingsSet', { key: 'orchestration.allowlist', value: ['A'] }));
    expect(clean.warnings).toBeUndefined();
    // `nexus settings set` through the real control socket says the kernel's warning, for Nobody only.
    const door = await startSocketDoor(s.nexus);
    try {
      let err = '';
      const code = await main(['settings', 'set', 'orchestration.allowlist', 'A,Nobody', '--data-dir', s.dataDir], {
        out: () => {},
        err: (t) => void (err += `${t}\n`),
      });
      expect(code).toBe(0);
      expect(err.trim().split('\n')).toEqual([expect.stringMatching(/^nexus: warning: no agent named "Nobody" exists yet/)]);
    } finally {
      await door.close();
    }
  });
});

describe('a stop hook that asks for more work (DESIGN §4)', () => {
  it('its exit 2 row is recorded as the answer it is (succeeded, decision continue), never failed tool_error', async () => {
    s = await scenario({ worker: (_req: ScriptedRequest, i: number) => ({ text: `answer ${i + 1}` }) });
    saveAgent(s.nexus.kernel, {
      name: 'worker',
      mode: 'bypass',
      model: { provider: 'chat-completions', baseURL: s.models.worker.baseURL, model: 'scripted-worker' },
      lifecycle_hooks: { stop: [{ tool: 'bash', input: { command: 'test -f again && exit 0; touch again; echo "one more pass" >&2; exit 2' } }] },
    });
    const ended = await s.ended(s.start('worker').id);
    expect(ended).toMatchObject({ status: 'succeeded', final_answer: 'answer 2' });
    const hooks = s.rowsOf('worker').filter((r) => r.origin === 'kernel' && r.tool === 'bash');
    expect(hooks.map((r) => [r.state, r.error?.code ?? null])).toEqual([
      ['succeeded', null],
      ['succeeded', null],
    ]);
    expect(hooks[0]!.result?.structuredContent).toMatchObject({ exit_code: 2, decision: 'continue' });
    expect(s.requests('worker')[1]!.userText).toContain('one more pass');
    expect(await s.call('inboxList')).toEqual([]);
  });
});

describe('a failed read', () => {
  it('says the path as given in a plain sentence: no doubled ENOENT, no absolute workspace path', async () => {
    s = await scenario({
      reader: queue([{ toolCalls: [{ name: 'read', input: { path: 'notes/missing.txt' } }] }, { text: 'reported' }]),
      gone: queue([{ toolCalls: [{ name: 'read', input: { path: 'x.txt' } }] }, { text: 'reported' }]),
    });
    await s.ended(s.start('reader').id);
    const read = last(s.requests('reader')[1]!);
    expect(read.split('\n')[0]).toBe('notes/missing.txt does not exist.');
    const row = s.rowsOf('reader').find((r) => r.tool === 'read')!;
    expect(row.error).toMatchObject({ detail: 'notes/missing.txt does not exist.' });
    // The workspace itself removed under the run: still one plain sentence, never Node's message.
    const run = s.start('gone');
    rmSync(run.workspace, { recursive: true, force: true });
    await s.ended(run.id);
    const text = last(s.requests('gone')[1]!);
    expect(text).not.toMatch(/ENOENT/);
    expect(text).not.toContain(run.workspace);
    expect(text).toMatch(/workspace folder does not exist/);
  });
});
