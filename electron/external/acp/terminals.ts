// The agent's terminal/* requests: each terminal is one row of NEXUS's own `bash` (through the stage, in the
// sandbox, in the workspace), started at terminal/create and read when it has ended. A command's output is
// returned whole at its end, not streamed; terminal/kill cannot end one row alone (Stop all ends them all).
import { z } from 'zod';
import type { CreateTerminalRequest, TerminalOutputResponse, WaitForTerminalExitResponse } from '@agentclientprotocol/sdk';
import type { Row } from '../../kernel/types.js';
import { ownCall, refused, type SessionState } from './session-calls.js';

const BashResult = z
  .object({ exit_code: z.number().nullish(), signal: z.string().nullish(), stdout: z.string().optional(), stderr: z.string().optional() })
  .loose();

export class Terminals {
  private next = 0;
  private rows = new Map<string, { done: Promise<Row>; row: Row | null }>();
  constructor(private readonly s: SessionState) {}

  create(p: CreateTerminalRequest): { terminalId: string } {
    // A command with args runs as that argv; a lone command is a command line (bash -c), as the agent wrote it.
    const command = p.args && p.args.length ? [p.command, ...p.args] : p.command;
    const id = `term-${++this.next}`;
    const entry: { done: Promise<Row>; row: Row | null } = { done: ownCall(this.s, 'bash', { command }), row: null };
    entry.done.then(
      (r) => (entry.row = r),
      () => undefined,
    );
    this.rows.set(id, entry);
    return { terminalId: id };
  }

  private get(id: string) {
    const t = this.rows.get(id);
    if (!t) throw refused(`NEXUS has no terminal ${id}.`);
    return t;
  }

  private static status(r: Row): WaitForTerminalExitResponse {
    const sc = BashResult.safeParse(r.result?.structuredContent ?? {});
    if (!sc.success || (sc.data.exit_code == null && sc.data.signal == null)) return { exitCode: r.state === 'succeeded' ? 0 : 1, signal: null };
    return { exitCode: sc.data.exit_code ?? null, signal: sc.data.signal ?? null };
  }

  private static text(r: Row): string {
    const sc = BashResult.safeParse(r.result?.structuredContent ?? {});
    if (sc.success && (sc.data.stdout !== undefined || sc.data.stderr !== undefined)) return `${sc.data.stdout ?? ''}${sc.data.stderr ?? ''}`;
    return (r.result?.content ?? []).map((c) => c.text).join('\n');
  }

  output(id: string): TerminalOutputResponse {
    const t = this.get(id);
    if (!t.row) return { output: '', truncated: false };
    return { output: Terminals.text(t.row), truncated: false, exitStatus: Terminals.status(t.row) };
  }

  async waitForExit(id: string): Promise<WaitForTerminalExitResponse> {
    return Terminals.status(await this.get(id).done);
  }

  kill(id: string): Record<string, never> {
    this.get(id);
    return {};
  }

  release(id: string): Record<string, never> {
    this.rows.delete(id);
    return {};
  }
}
