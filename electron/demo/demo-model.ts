// The offline demo's model: a tiny Chat Completions server on 127.0.0.1 whose replies are a fixed script
// that branches on what the agent reads (the same idea as the test fixture, written for production: the
// app must not import test/). It is NOT an AI and the window says so (the OFFLINE DEMO banner); the kernel,
// the approval stage, the orchestration gate and the cards it meets are the real ones.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export const DEMO_PLANNER = 'demo-planner';
export const DEMO_BUILDER = 'demo-builder';
export const DEMO_MODEL_PREFIX = 'nexus-demo';

type Msg = { role: string; content?: unknown; tool_calls?: unknown[] };
type Reply = { text: string } | { call: { name: string; input: unknown } };

const textOf = (m: Msg | undefined): string =>
  !m ? '' : typeof m.content === 'string' ? m.content : Array.isArray(m.content) ? m.content.map((p) => (p as { text?: string }).text ?? '').join('') : '';

/** The JSON line a tool result carries after its text (DESIGN §3), if any. */
function structured(text: string): { code?: string; request_id?: string; reason?: string } {
  for (const line of text.split('\n').reverse()) {
    const l = line.trim();
    if (!l.startsWith('{')) continue;
    try {
      return JSON.parse(l);
    } catch {
      /* not it */
    }
  }
  return {};
}

const HELLO = { path: 'hello.md', content: '# Hello from NEXUS\n\nWritten by demo-builder after a person approved it.\n' };

export function plannerReply(messages: Msg[]): Reply {
  const last = messages[messages.length - 1];
  if (last?.role === 'tool') {
    const t = textOf(last);
    const first = t.split('\n')[0];
    return {
      text:
        structured(t).code || /fail|denied|refus/i.test(first)
          ? `The builder could not finish. What it reported: ${first}`
          : `Done. The builder reported: ${first}`,
    };
  }
  if (!messages.some((m) => m.role === 'assistant')) {
    return {
      call: {
        name: 'delegate_task',
        input: {
          agent: DEMO_BUILDER,
          task: 'Write hello.md in your workspace with a short greeting.',
          acceptance_check: { command: 'test -s hello.md', timeout_s: 10 },
        },
      },
    };
  }
  return { text: `Noted: ${textOf(last).split('\n')[0]}` };
}

export function builderReply(messages: Msg[]): Reply {
  const last = messages[messages.length - 1];
  if (last?.role === 'tool') {
    const t = textOf(last);
    const s = structured(t);
    if (s.code === 'hop_held')
      return { text: `Orchestration is holding this hop for a person's approval (request ${s.request_id}). I will retry the same call once it is answered.` };
    // An expired hold is refused too, but no person refused it: say which (shared/orchestration/holds.ts).
    if (s.code === 'hop_refused' && s.reason === 'approval_expired')
      return { text: 'Nobody answered this hop within 24 hours, so its approval expired. I am reporting that instead of retrying.' };
    if (s.code === 'hop_refused') return { text: 'A person refused this hop. I am reporting that instead of retrying.' };
    if (s.code) return { text: `Orchestration denied this hop (${s.code}): ${t.split('\n')[0]} I am reporting it instead of retrying.` };
    if (/denied|refused|not approved|expired/i.test(t.split('\n')[0])) return { text: `I did not write hello.md: ${t.split('\n')[0]}` };
    return { text: 'I wrote hello.md.' };
  }
  if (last?.role === 'user' && messages.some((m) => m.role === 'assistant') && /APPROVED/.test(textOf(last))) return { call: { name: 'write', input: HELLO } };
  if (!messages.some((m) => m.role === 'assistant')) return { call: { name: 'write', input: HELLO } };
  // A refusal or the acceptance check's feedback: report, never loop.
  return { text: `I cannot do more here: ${textOf(last).split('\n')[0].slice(0, 300)}` };
}

export interface DemoModel {
  baseURL: string;
  close(): Promise<void>;
}

export async function startDemoModel(): Promise<DemoModel> {
  const sockets = new Set<Socket>();
  let n = 0;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) return void res.writeHead(404).end();
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      let parsed: { model?: string; messages?: Msg[]; stream?: boolean };
      try {
        parsed = JSON.parse(body);
      } catch {
        return void res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":{"message":"bad json"}}');
      }
      const messages = parsed.messages ?? [];
      const model = parsed.model ?? DEMO_MODEL_PREFIX;
      const reply = model.includes('builder') ? builderReply(messages) : plannerReply(messages);
      const id = `demo-${++n}`;
      const call =
        'call' in reply
          ? { index: 0, id: `call_${id}`, type: 'function', function: { name: reply.call.name, arguments: JSON.stringify(reply.call.input) } }
          : null;
      const finish = call ? 'tool_calls' : 'stop';
      const usage = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };
      const created = Math.floor(Date.now() / 1000);
      if (!parsed.stream) {
        const message = call ? { role: 'assistant', content: null, tool_calls: [call] } : { role: 'assistant', content: (reply as { text: string }).text };
        return void res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ id, object: 'chat.completion', created, model, choices: [{ index: 0, message, finish_reason: finish }], usage }));
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const chunk = (choices: unknown[], extra: object = {}) =>
        res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices, ...extra })}\n\n`);
      chunk([
        {
          index: 0,
          delta: call ? { role: 'assistant', tool_calls: [call] } : { role: 'assistant', content: (reply as { text: string }).text },
          finish_reason: null,
        },
      ]);
      chunk([{ index: 0, delta: {}, finish_reason: finish }]);
      chunk([], { usage });
      res.end('data: [DONE]\n\n');
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
