// docs/tutorial.md replayed as written (test/support/docs-replay.ts): every `$ ` line of its console blocks
// runs in bash in one terminal, files the page says to save are saved, and each command's output must be what
// the page shows once ids, times, ports, tokens and the home folder are set aside. The model is
// test/support/tutorial-model.ts in place of Ollama (same replies every time).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../support/serve.js';
import { startTutorialModel } from '../support/tutorial-model.js';
import type { ScriptedModel } from '../support/scripted-model.js';
import { readDoc } from '../support/docs-markdown.js';
import { replay, steps, type Replay } from '../support/docs-replay.js';

const SKIPPED = ['1. Install', '3. Connect a local model']; // replaced by the build and the scripted model

let terminal: Replay;
let model: ScriptedModel;

beforeAll(async () => {
  build();
  terminal = replay();
  model = await startTutorialModel();
}, 60_000);

afterAll(async () => {
  await terminal?.close();
  await model?.close();
});

describe('docs/tutorial.md, replayed', () => {
  it('every command prints what the page shows', async () => {
    const all = steps(readDoc('tutorial.md'), SKIPPED);
    expect(all.filter((s) => s.kind === 'command').length).toBeGreaterThan(10);
    await terminal.run(all, { file: (body) => body.replaceAll('http://127.0.0.1:11434/v1', model.baseURL), retry: /^nexus (inbox|runs (show|list))/ });
  }, 180_000);
});
