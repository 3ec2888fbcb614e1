// A scripted Gemini API server for the real Gemini CLI (loopback only; GOOGLE_GEMINI_BASE_URL points at it):
// `POST /v1beta/models/<model>:generateContent` (JSON; Gemini's model router asks it first) and
// `…:streamGenerateContent?alt=sse` (SSE, one chunk). Requests are normalized as the other scripted servers do:
// the tools offered and the tool results (functionResponse.response, as JSON text) the model reads.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { listen, readBody, type ClientModel, type ClientRequest, type ClientScript } from './client-models.js';

type Part = { text?: string; functionCall?: unknown; functionResponse?: { name?: string; response?: unknown } };
type Content = { role?: string; parts?: Part[] };

function normalize(body: Record<string, unknown>): ClientRequest {
  const contents = Array.isArray(body.contents) ? (body.contents as Content[]) : [];
  const toolResults: string[] = [];
  for (const c of contents) for (const p of c.parts ?? []) if (p.functionResponse) toolResults.push(JSON.stringify(p.functionResponse.response ?? {}));
  const tools = Array.isArray(body.tools) ? (body.tools as Array<{ functionDeclarations?: Array<{ name?: string }> }>) : [];
  const toolNames = tools.flatMap((t) => (t.functionDeclarations ?? []).map((d) => d.name ?? ''));
  return { toolResults, toolNames, body };
}

export async function startGeminiModel(script: ClientScript): Promise<ClientModel> {
  const requests: ClientRequest[] = [];
  return listen(async (req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? '';
    const m = /\/models\/([^:/?]+):(generateContent|streamGenerateContent|countTokens)/.exec(url);
    if (req.method !== 'POST' || !m) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { code: 404, message: `no route ${req.method} ${url}`, status: 'NOT_FOUND' } }));
      return;
    }
    const body = await readBody(req);
    if (m[2] === 'countTokens') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ totalTokens: 10 }));
      return;
    }
    const usageMetadata = { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 };
    const reply = (parts: Part[]) => ({
      candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
      usageMetadata,
      modelVersion: m[1],
    });
    if (m[2] === 'generateContent') {
      // The router (and any other one-shot helper call): a routing choice in JSON, no tool call.
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(reply([{ text: JSON.stringify({ reasoning: 'scripted', model_choice: 'flash' }) }])));
      return;
    }
    const r = normalize(body);
    requests.push(r);
    const s = script(r, requests.length - 1);
    const parts: Part[] = 'text' in s ? [{ text: s.text }] : [{ functionCall: { name: 'name' in s.call ? s.call.name : s.call.custom, args: s.call.input } }];
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.write(`data: ${JSON.stringify(reply(parts))}\r\n\r\n`);
    res.end();
  }, requests);
}
