// What a card says, as plain functions (unit-tested): which of the two asks, and what the call would do.
import type { InboxItem } from '../../stores/inbox.js';

export const KIND_LABEL: Record<InboxItem['kind'], string> = {
  autonomy: 'Autonomy',
  orchestration: 'Orchestration',
  attention: 'Needs attention',
  question: 'Question',
};

/** The sentence that says who is asking and why: the remedy differs (seed 003). */
export function askerLine(item: InboxItem): string {
  const agent = item.agent ?? 'your standalone run';
  const mode = (item.effect as { mode?: string } | undefined)?.mode;
  switch (item.kind) {
    case 'autonomy':
      return `Asked by ${item.agent ? `${agent}'s` : 'this run\'s'} autonomy mode${mode ? ` (${mode})` : ''}: the call parked until you answer.`;
    case 'orchestration':
      return `Asked by orchestration: hop ${item.hop ?? '?'} of chain ${shortId(item.chain_id)}. Per-hop approval holds every governed hop.`;
    case 'attention':
      return item.tool === 'delegate_task'
        ? `A task delegated to ${agent} failed and waits for you. Retry gives it another go; Abandon gives up on it.`
        : `A lifecycle hook of ${agent}'s run failed and waits for you. Retry runs it again; Abandon gives up on it.`;
    case 'question':
      return `${agent} asked you a question and waits for your answer.`;
  }
}

/** Where a person would change what made this card appear. */
export function remedyLine(item: InboxItem): string | null {
  if (item.kind === 'autonomy') return "To stop being asked for calls like this, change the agent's mode or rules in Agents.";
  if (item.kind === 'orchestration') return 'Per-hop approval lives in Settings ▸ Agents ▸ Orchestration. Trusting an agent never covers a hold.';
  return null;
}

/**
 * A short form of an id that still tells ids apart: the readable prefix and the LAST six characters.
 * Run and row ids start with a millisecond timestamp (time-ordered, like a ULID), so their first characters
 * are the same for every id made in the same weeks; chain and request ids are random after the prefix.
 * The tail is where ids differ. The full id is always in a title/tooltip beside it.
 */
export const shortId = (id: string | undefined | null): string => {
  if (!id) return '—';
  const cut = id.indexOf('_') + 1;
  const prefix = id.slice(0, cut);
  const rest = id.slice(cut);
  return rest.length > 8 ? `${prefix}…${rest.slice(-6)}` : id;
};

/** The readable form of a tool's input: a shell command as text, everything else as indented JSON. */
export function readableInput(tool: string, input: unknown): { kind: 'command' | 'json'; text: string } {
  if (input && typeof input === 'object' && !Array.isArray(input)) {
    const o = input as Record<string, unknown>;
    if ((tool === 'bash' || tool === 'start_process') && typeof o.command === 'string') return { kind: 'command', text: o.command };
  }
  let text: string;
  try {
    text = JSON.stringify(input ?? {}, null, 2);
  } catch {
    text = String(input);
  }
  return { kind: 'json', text };
}

export type DiffLine = { sign: '+' | '-' | ' ' | '@'; text: string };
/** A unified diff split into lines a view colours. File headers are dropped (the target says the file). */
export function diffLines(diff: string): DiffLine[] {
  const out: DiffLine[] = [];
  for (const line of diff.split('\n')) {
    if (line.startsWith('+++') || line.startsWith('---') || line.startsWith('Index:') || line.startsWith('====')) continue;
    if (line.startsWith('@@')) out.push({ sign: '@', text: line });
    else if (line.startsWith('+')) out.push({ sign: '+', text: line.slice(1) });
    else if (line.startsWith('-')) out.push({ sign: '-', text: line.slice(1) });
    else if (line.startsWith('\\')) continue;
    else out.push({ sign: ' ', text: line.startsWith(' ') ? line.slice(1) : line });
  }
  while (out.length && out[out.length - 1].sign === ' ' && out[out.length - 1].text === '') out.pop();
  return out;
}
