// docs/acp-agents.md as a reader follows it: the page's agent file is accepted by the profile schema; its
// commands, run with a real `nexus serve`, start the scripted ACP agent in the sandbox, whose permission request
// the page's rule allows, whose command runs, and whose own read of the data dir fails. The kind table is the code's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { AgentProfileInput } from '../../shared/api/agents.js';
import { judgedCall } from '../../electron/external/acp/tool-calls.js';
import { sandboxAvailability } from '../../electron/sandbox/index.js';
import { bodyRows, fences, readDoc, ROOT, sections, unquote } from '../support/docs-markdown.js';
import { commandLines, shell, type Shell } from '../support/docs-shell.js';
import { build } from '../support/serve.js';

const page = readDoc('acp-agents.md');
const section = (title: string) => sections(page, 2).find((s) => s.title === title)!.body;
const agentFile = () =>
  fences(section('The agent file'))
    .find((f) => f.lang === 'json')!
    .body.replace('NEXUS/', `${ROOT}/`);

describe('docs/acp-agents.md', () => {
  it('the agent file is a valid profile with an acp section', () => {
    const r = AgentProfileInput.safeParse(JSON.parse(agentFile()));
    expect(r.success).toBe(true);
    expect(AgentProfileInput.safeParse({ ...JSON.parse(agentFile()), acp: { command: 'x', shell: true } }).success).toBe(false);
  });
  it('every agent file on the page is a valid profile', () => {
    const files = fences(page).filter((f) => f.lang === 'json');
    expect(files.length).toBe(3);
    for (const f of files) expect(AgentProfileInput.safeParse(JSON.parse(f.body)).success, f.body).toBe(true);
  });
  it('the kind table is what NEXUS judges', () => {
    for (const row of bodyRows(section('How calls are named'))) {
      const kinds = [...row[0].matchAll(/`([a-z_]+)`/g)].map((m) => m[1]!);
      const names = [...row[1].matchAll(/`([a-z_<>]+)`/g)].map((m) => m[1]!);
      if (row[0] === 'anything else') {
        expect(judgedCall({ toolCallId: 'c', kind: 'think' }).name).toBe('acp_think');
        continue;
      }
      kinds.forEach((kind, i) => expect(judgedCall({ toolCallId: 'c', kind }).name, kind).toBe(unquote(`\`${names[Math.min(i, names.length - 1)]}\``)));
    }
  });
});

describe.skipIf(sandboxAvailability().kind === null)('docs/acp-agents.md: "Run it" works as written', () => {
  let sh: Shell;
  beforeAll(() => {
    build();
    sh = shell();
  }, 120_000);
  afterAll(async () => {
    await sh?.close();
  });
  it('serve, add the agent, run it: allowed by the rule, its command ran, the data dir hidden from it', async () => {
    writeFileSync(join(sh.dir, 'scripted-acp.json'), agentFile());
    const outs: string[] = [];
    for (const l of commandLines(fences(section('Run it')).find((f) => f.lang === 'sh')!.body)) {
      const r = await sh.line(l);
      expect(r.code, `${l}\n${r.err}`).toBe(0);
      outs.push(r.out);
    }
    const said = JSON.parse(outs.at(-1)!.trim()) as Record<string, unknown>;
    for (const m of section('Run it')
      .split('Without the rule')[0]!
      .matchAll(/`"(\w+)":"([^"]+)"`/g))
      expect(said[m[1]!], m[1]).toBe(m[2]);
  }, 120_000);
});
