// docs/delegation.md replayed as written (test/support/docs-replay.ts): the self-signed entitlement, the
// offline demo (`nexus demo`) through its three cards, two agents of the reader's own delegating through the
// real gate, and Recent chains, each output compared with the page. The agents' model is
// test/support/delegation-model.ts in place of Ollama; the `delegate_task` input the page spells out is the
// one that model sends, and the page's agent files are accepted by the API's own schema.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../support/serve.js';
import { DELEGATED_TASK, startDelegationModel } from '../support/delegation-model.js';
import type { ScriptedModel } from '../support/scripted-model.js';
import { fences, readDoc, sections } from '../support/docs-markdown.js';
import { replay, steps, type Replay } from '../support/docs-replay.js';
import { AgentProfileInput } from '../../shared/api/agents.js';

const page = readDoc('delegation.md');
let terminal: Replay;
let model: ScriptedModel;

beforeAll(async () => {
  build();
  terminal = replay();
  model = await startDelegationModel();
}, 60_000);

afterAll(async () => {
  await terminal?.close();
  await model?.close();
});

describe('docs/delegation.md', () => {
  it('spells out the delegate_task input the model sends, and its agent files are valid agents', () => {
    const own = sections(page, 2).find((s) => s.title === '3. Your own two agents')!.body;
    const json = fences(own).filter((f) => f.lang === 'json');
    expect(JSON.parse(json[2]!.body)).toEqual(DELEGATED_TASK);
    for (const agent of json.slice(0, 2)) expect(AgentProfileInput.safeParse(JSON.parse(agent.body)).error).toBeUndefined();
  });

  it('every command prints what the page shows, ending in Recent chains', async () => {
    const all = steps(page);
    expect(all.filter((s) => s.kind === 'command').length).toBeGreaterThan(15);
    await terminal.run(all, { file: (body) => body.replaceAll('http://127.0.0.1:11434/v1', model.baseURL) });
  }, 180_000);
});
