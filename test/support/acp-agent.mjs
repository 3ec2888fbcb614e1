// A small scripted ACP agent (the SDK's agent side over stdio), for the tests and the docs' example. Its prompt
// is JSON: { "peek": PATH?, "command": "...", "writes": [{ "path", "content" }]?, "terminal": "..."? }. It
//   1. tries to read PATH itself (NEXUS's data dir: inside NEXUS's sandbox it must fail),
//   2. reports a tool call `execute` for `command`, asks permission, and runs it itself only when allowed,
//   3. optionally writes files through the client (fs/write_text_file) and runs `terminal` in a client terminal,
// then answers one line of JSON saying what happened.
import { execSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { Readable, Writable } from 'node:stream';
import { agent, methods, ndJsonStream, PROTOCOL_VERSION } from '@agentclientprotocol/sdk';

const stream = ndJsonStream(Writable.toWeb(process.stdout), Readable.toWeb(process.stdin));
let n = 0;

const app = agent({ name: 'scripted-acp-agent' })
  .onRequest(methods.agent.initialize, () => ({ protocolVersion: PROTOCOL_VERSION, agentCapabilities: {} }))
  .onRequest(methods.agent.session.new, () => ({ sessionId: `s${++n}` }))
  .onNotification(methods.agent.session.cancel, () => undefined)
  .onRequest(methods.agent.session.prompt, async ({ params, client }) => {
    const block = params.prompt.find((b) => b.type === 'text');
    const script = JSON.parse(block?.text ?? '{}');
    const out = { peek: null, permission: null, ran: null, wrote: null, terminal: null };
    if (script.peek) {
      try {
        out.peek = `read ${readdirSync(script.peek).length} entries; ${readFileSync(`${script.peek}/nexus.db`).length} bytes of nexus.db`;
      } catch (e) {
        out.peek = `refused: ${e.code ?? e.message}`;
      }
    }
    const toolCall = { toolCallId: 'call-1', title: script.command, kind: 'execute', status: 'pending', rawInput: { command: script.command } };
    await client.notify(methods.client.session.update, { sessionId: params.sessionId, update: { sessionUpdate: 'tool_call', ...toolCall } });
    const answer = await client.request(methods.client.session.requestPermission, {
      sessionId: params.sessionId,
      toolCall,
      options: [
        { optionId: 'allow', name: 'Allow once', kind: 'allow_once' },
        { optionId: 'always', name: 'Always allow', kind: 'allow_always' },
        { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
      ],
    });
    out.permission = answer.outcome.outcome === 'selected' ? answer.outcome.optionId : 'cancelled';
    if (out.permission === 'allow') out.ran = execSync(script.command, { encoding: 'utf8' }).trim();
    if (script.writes) out.wrote = [];
    for (const w of script.writes ?? []) {
      try {
        await client.request(methods.client.fs.writeTextFile, { sessionId: params.sessionId, ...w });
        out.wrote.push('ok');
      } catch (e) {
        out.wrote.push(`refused: ${e.message}`);
      }
    }
    if (script.terminal) {
      try {
        const t = await client.request(methods.client.terminal.create, { sessionId: params.sessionId, command: script.terminal });
        const exit = await client.request(methods.client.terminal.waitForExit, { sessionId: params.sessionId, terminalId: t.terminalId });
        const got = await client.request(methods.client.terminal.output, { sessionId: params.sessionId, terminalId: t.terminalId });
        await client.request(methods.client.terminal.release, { sessionId: params.sessionId, terminalId: t.terminalId });
        out.terminal = { exit: exit.exitCode, output: got.output };
      } catch (e) {
        out.terminal = `refused: ${e.message}`;
      }
    }
    await client.notify(methods.client.session.update, {
      sessionId: params.sessionId,
      update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: JSON.stringify(out) } },
    });
    return { stopReason: 'end_turn' };
  });

const conn = app.connect(stream);
await conn.closed;
