// What an ACP agent's tool call is to the stage. The agent runs its own tools (inside NEXUS's sandbox); NEXUS
// judges each one as a row. Rules match NEXUS's names (an `execute` call is `bash` with its `command`, a `read` is
// `read` with its `path`), so the rules written for NEXUS's own agents govern an ACP agent the same way.
//
// The row's wire name is `NAME__<runner id>`: a call served by another executor (as an MCP server's tools are),
// so the rules read NAME while the kernel can never run its own `bash` for it. The run's tool under that name
// only records that the agent runs the call itself.
import { z } from 'zod';
import { runnerId, qualifiedName } from '../../runners/runner-id.js';
import type { ExecutorTool } from '../../kernel/types.js';

/** The fields of an ACP ToolCall / ToolCallUpdate NEXUS reads (the SDK has parsed the rest). */
export const ReportedCall = z.object({
  toolCallId: z.string().min(1),
  title: z.string().nullish(),
  kind: z.string().nullish(),
  status: z.string().nullish(),
  rawInput: z.unknown().optional(),
  locations: z.array(z.object({ path: z.string() }).loose()).nullish(),
});
export type ReportedCall = z.infer<typeof ReportedCall>;

const KIND_TOOL: Record<string, string> = { execute: 'bash', read: 'read', edit: 'edit', delete: 'edit', move: 'edit', fetch: 'fetch', search: 'search' };

const Obj = z.record(z.string(), z.unknown());
export const record = (v: unknown): Record<string, unknown> => {
  const r = Obj.safeParse(v);
  return r.success ? { ...r.data } : {};
};

/** NEXUS's name and the input rules read for one reported call. */
export function judgedCall(c: ReportedCall): { name: string; input: Record<string, unknown> } {
  const kind = c.kind ?? 'other';
  const name = KIND_TOOL[kind] ?? (kind === 'other' ? 'acp_tool' : `acp_${kind}`);
  const input = record(c.rawInput);
  if (name === 'bash' && typeof input.command !== 'string') {
    const cmd = Array.isArray(input.command) ? input.command.join(' ') : (c.title ?? '');
    input.command = cmd;
  }
  const path = c.locations?.[0]?.path;
  if ((name === 'read' || name === 'edit') && typeof input.path !== 'string') {
    const p = path ?? input.file_path ?? input.absolute_path ?? input.filePath;
    if (typeof p === 'string') input.path = p;
  }
  if (c.title && input.title === undefined) input.title = c.title;
  return { name, input };
}

/** The runner id standing for this agent's own executor. */
export const acpRunner = (agent: string): string => runnerId(`acp:${agent}`);

/** The run tool a reported call's row "runs" once granted: it records that the agent executes it. */
export function reportedTool(agent: string, name: string): ExecutorTool {
  const wire = qualifiedName(name, acpRunner(agent));
  return {
    name: wire,
    description: `A ${name} call the ACP agent ${agent} runs itself, inside NEXUS's sandbox.`,
    inputSchema: { type: 'object' },
    target: (input) => {
      const i = record(input);
      const t = i.command ?? i.path ?? i.url ?? i.title;
      return typeof t === 'string' ? t : name;
    },
    run: async () => ({
      content: [{ type: 'text', text: `Allowed; the ACP agent ${agent} runs this call itself inside NEXUS's sandbox. NEXUS does not see its output.` }],
    }),
  };
}
