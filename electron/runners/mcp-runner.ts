// One MCP server as a runner: connected lazily through the official SDK Client (stdio child process or
// Streamable HTTP), its tools listed once per connection, calls carried with the run's abort signal.
// close() ends the child process (the SDK sends EOF, then SIGTERM, then SIGKILL): nothing is left running.
// A stdio server runs inside the agent's OS sandbox (electron/sandbox), which also dies with the kernel.
import { z } from 'zod';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { McpServerConfig, ToolResult } from '../../shared/types.js';
import { runnerId } from './runner-id.js';
import { prepareLaunch, withSeccompFd, type Launch, type SandboxPolicy } from '../sandbox/index.js';
import { NexusError } from '../../shared/errors.js';

export interface ServedTool {
  /** The name the server serves it under. */
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

export interface McpRunnerOptions {
  /** Working directory for a stdio server (the agent's workspace). */
  cwd?: string;
  /** Per-call timeout, ms (MCP SDK default is 60 s). */
  callTimeoutMs?: number;
  connectTimeoutMs?: number;
  /** The OS sandbox a stdio server runs in (absent: sandboxed in `cwd`, no network, nothing hidden). */
  sandbox?: SandboxPolicy;
}

export class RunnerError extends NexusError {
  constructor(
    override readonly code: 'runner_config' | 'runner_unreachable' | 'runner_failed' | 'sandbox_unavailable',
    message: string,
  ) {
    super(code, message);
  }
}

const isUrl = (u: string) => u === '' || URL.canParse(u);
const isHttp = (u: string) => u === '' || ['http:', 'https:'].includes(new URL(u).protocol);

/** How a runner reaches its server: a stdio command or a Streamable HTTP url, exactly one (an empty one is none). */
export const McpServerLaunch = z
  .looseObject({
    command: z.string().optional(),
    url: z.string().refine(isUrl, { message: 'has a url that is not a URL', abort: true }).refine(isHttp, 'url must be http(s)').optional(),
  })
  .refine((c) => Boolean(c.command) !== Boolean(c.url), 'needs exactly one of "command" (stdio) or "url" (Streamable HTTP)');

export function validateServerConfig(name: string, cfg: McpServerConfig): void {
  const r = McpServerLaunch.safeParse(cfg);
  if (!r.success) throw new RunnerError('runner_config', `MCP server ${JSON.stringify(name)} ${r.error.issues.map((i) => i.message).join('; ')}.`);
}

/** MCP content blocks to the kernel's text-only ToolResult: non-text blocks are described, not dropped. */
export function toToolResult(res: unknown): ToolResult {
  const r = (res ?? {}) as { content?: unknown; structuredContent?: unknown; isError?: unknown; toolResult?: unknown };
  const blocks = Array.isArray(r.content) ? (r.content as Array<Record<string, unknown>>) : [];
  const content = blocks.map((b) => {
    if (b.type === 'text') return { type: 'text' as const, text: String(b.text ?? '') };
    if (b.type === 'image' || b.type === 'audio') {
      const size = typeof b.data === 'string' ? Math.floor((b.data.length * 3) / 4) : 0;
      return { type: 'text' as const, text: `[${b.type} ${String(b.mimeType ?? '')}, ${size} bytes]` };
    }
    if (b.type === 'resource_link') return { type: 'text' as const, text: `[resource ${String(b.uri ?? '')}${b.name ? ` (${String(b.name)})` : ''}]` };
    if (b.type === 'resource') {
      const res = (b.resource ?? {}) as { uri?: string; text?: string };
      return { type: 'text' as const, text: typeof res.text === 'string' ? res.text : `[resource ${res.uri ?? ''}]` };
    }
    return { type: 'text' as const, text: `[${String(b.type)} content]` };
  });
  if (!blocks.length && r.toolResult !== undefined) content.push({ type: 'text', text: JSON.stringify(r.toolResult) });
  const out: ToolResult = { content };
  if (r.structuredContent && typeof r.structuredContent === 'object' && !Array.isArray(r.structuredContent)) {
    out.structuredContent = r.structuredContent as Record<string, unknown>;
  }
  if (r.isError === true) out.isError = true;
  return out;
}

export class McpRunner {
  readonly id: string;
  private client: Client | null = null;
  private connecting: Promise<Client> | null = null;
  private tools: ServedTool[] | null = null;
  private closed = false;
  private stdio: StdioClientTransport | null = null;
  private launch: Launch | null = null;

  constructor(
    readonly name: string,
    readonly config: McpServerConfig,
    private readonly opts: McpRunnerOptions = {},
  ) {
    validateServerConfig(name, config);
    this.id = runnerId(name);
  }

  private where(): string {
    return this.config.url ? this.config.url : [this.config.command, ...(this.config.args ?? [])].join(' ');
  }

  private connect(): Promise<Client> {
    if (this.closed) return Promise.reject(new RunnerError('runner_unreachable', `MCP server ${this.name} is closed.`));
    if (this.client) return Promise.resolve(this.client);
    this.connecting ??= (async () => {
      const client = new Client({ name: 'nexus', version: '0.1.0' }, { capabilities: {} });
      let transport: StreamableHTTPClientTransport | StdioClientTransport;
      if (this.config.url) transport = new StreamableHTTPClientTransport(new URL(this.config.url), { requestInit: { headers: this.config.headers ?? {} } });
      else {
        // A stdio server is a process the agent's profile chose: it runs in the agent's sandbox, with an
        // allowlisted environment plus the server's own configured `env`.
        const cwd = this.opts.cwd ?? process.cwd();
        const policy = this.opts.sandbox ?? {
          enabled: true,
          workspace: cwd,
          hidden: [],
          networkAllow: this.config.network?.allow ?? [],
          envPassthrough: [],
          envWithheld: [],
        };
        const prepared = await prepareLaunch(
          [this.config.command!, ...(this.config.args ?? [])],
          { ...policy, workspace: cwd },
          { serverEnv: this.config.env ?? {} },
        );
        if (!prepared.ok) throw new RunnerError('sandbox_unavailable', `MCP server ${this.name} was not started: ${prepared.refusal}`);
        this.launch = prepared.launch;
        const started = withSeccompFd(prepared.launch);
        transport = new StdioClientTransport({ command: started.file, args: started.args, env: prepared.launch.env, cwd, stderr: 'ignore' });
      }
      if (transport instanceof StdioClientTransport) this.stdio = transport;
      try {
        await client.connect(transport, { timeout: this.opts.connectTimeoutMs ?? 30_000 });
      } catch (e) {
        await transport.close().catch(() => undefined);
        await this.closeLaunch();
        throw new RunnerError('runner_unreachable', `MCP server ${this.name} (${this.where()}) could not be started or reached: ${(e as Error).message}`);
      }
      client.onclose = () => {
        // The server went away: the next call reconnects.
        if (this.client === client) {
          this.client = null;
          this.tools = null;
          void this.closeLaunch();
        }
      };
      if (this.closed) {
        await client.close().catch(() => undefined);
        throw new RunnerError('runner_unreachable', `MCP server ${this.name} is closed.`);
      }
      this.client = client;
      return client;
    })().finally(() => {
      this.connecting = null;
    });
    return this.connecting;
  }

  /** The stdio server's process id while connected (null for HTTP or not connected). */
  get pid(): number | null {
    return this.client && this.stdio ? (this.stdio.pid ?? null) : null;
  }

  async listTools(): Promise<ServedTool[]> {
    if (this.tools) return this.tools;
    const client = await this.connect();
    const out: ServedTool[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : {});
      for (const t of page.tools) {
        out.push({
          name: t.name,
          description: t.description ?? t.title ?? t.name,
          inputSchema: (t.inputSchema ?? { type: 'object' }) as Record<string, unknown>,
        });
      }
      cursor = page.nextCursor;
    } while (cursor);
    this.tools = out;
    return out;
  }

  /** Call a tool under its SERVED name. Protocol errors become isError results the model can read. */
  async call(tool: string, input: unknown, signal?: AbortSignal, timeoutMs?: number): Promise<ToolResult> {
    const client = await this.connect();
    const args = input && typeof input === 'object' && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
    try {
      const res = await client.callTool({ name: tool, arguments: args }, undefined, {
        ...(signal ? { signal } : {}),
        timeout: timeoutMs ?? this.opts.callTimeoutMs ?? 120_000,
      });
      return toToolResult(res);
    } catch (e) {
      if (signal?.aborted) throw e;
      const msg = (e as Error).message ?? String(e);
      return {
        content: [{ type: 'text', text: `MCP server ${this.name} failed the call to ${tool}: ${msg}` }],
        structuredContent: { code: 'runner_error', runner: this.id },
        isError: true,
      };
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const pending = this.connecting;
    if (pending) await pending.catch(() => undefined);
    const c = this.client;
    this.client = null;
    this.tools = null;
    if (c) await c.close().catch(() => undefined);
    await this.closeLaunch();
  }

  /** The sandbox's proxy and temp folder go once the server process has gone. */
  private async closeLaunch(): Promise<void> {
    const l = this.launch;
    this.launch = null;
    await l?.close().catch(() => undefined);
  }
}
