// What a card says, as plain functions (unit-tested): which of the two asks, and what the call would do.
import { answersOf, type InboxAnswer } from '../../../../shared/inbox/answers.js';
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
      return `Asked by ${item.agent ? `${agent}'s` : "this run's"} autonomy mode${mode ? ` (${mode})` : ''}: the call parked until you answer.`;
    case 'orchestration':
      return `Asked by orchestration: hop ${item.hop ?? '?'} of chain ${shortId(item.chain_id)}. Per-hop approval holds every governed hop.`;
    case 'attention':
      return item.tool === 'delegate_task'
        ? `A task delegated to ${agent} failed. The agent that delegated it already has the failure and may delegate again; Dismiss closes this card.`
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

/**
 * Which answers a card offers: the ones it accepts (the kernel sends them; shared/inbox/answers.ts is the one
 * list, also behind the CLI's hints and the docs), so no button always fails.
 */
export function actionsOf(item: Pick<InboxItem, 'kind' | 'tool' | 'answers'>): InboxAnswer[] {
  return item.answers ? [...item.answers] : [...answersOf(item)];
}

// The formats runLabel uses, made once: toLocaleTimeString with options builds a new formatter per call
// (about a millisecond each, on every render of the card shown). The same output.
let clock: Intl.DateTimeFormat | null = null;
let day: Intl.DateTimeFormat | null = null;

/** The run link's words: whose run, and when it started ("builder · started 10:42"). */
export function runLabel(agent: string | null, createdAt: string | null | undefined, now = Date.now()): string {
  const who = agent ?? 'standalone run';
  if (!createdAt || Number.isNaN(Date.parse(createdAt))) return who;
  const d = new Date(createdAt);
  const hm = (clock ??= new Intl.DateTimeFormat([], { hour: '2-digit', minute: '2-digit', hour12: false })).format(d);
  const sameDay = new Date(now).toDateString() === d.toDateString();
  return `${who} · started ${sameDay ? hm : `${(day ??= new Intl.DateTimeFormat([], { month: 'short', day: 'numeric' })).format(d)} ${hm}`}`;
}

/** What the agent said before its call, cut to a readable length (the rest behind "Show more"). */
export function trimSaid(text: string, max = 280): { short: string; cut: boolean } {
  const t = text.trim().replace(/\n{3,}/g, '\n\n');
  if (t.length <= max) return { short: t, cut: false };
  const at = t.lastIndexOf(' ', max);
  return { short: `${t.slice(0, at > max * 0.6 ? at : max).trimEnd()}…`, cut: true };
}

interface ChainLike {
  agents: string[];
  hops: { hop: number; agent: string; action: string; target: string }[];
}
/**
 * The path a held hop took: the agents in the order they acted up to this hop (lead → mid → this agent), and
 * who handed the work on to this agent (the agent of the latest earlier hop that targeted it).
 */
export function chainPath(chain: ChainLike | undefined, hop: number | undefined, agent: string | null): { path: string[]; handedBy: string | null } {
  if (!chain) return { path: agent ? [agent] : [], handedBy: null };
  const earlier = chain.hops.filter((h) => hop === undefined || h.hop < hop).sort((a, b) => a.hop - b.hop);
  const path: string[] = [];
  for (const h of earlier) if (path[path.length - 1] !== h.agent) path.push(h.agent);
  if (agent && path[path.length - 1] !== agent) path.push(agent);
  const handed = [...earlier]
    .reverse()
    .find((h) => h.agent !== agent && (h.target === agent || h.target.startsWith(`${agent} `) || h.target.includes(agent ?? '\u0000')));
  return { path, handedBy: handed?.agent ?? (path.length > 1 ? path[path.length - 2] : null) };
}

/** A title's target: the first line, cut to `max` characters, saying how many lines follow (the whole text is
 *  in the card's code block). `cut` says whether the title shows less than the whole. */
export function titleTarget(target: string, max = 90): { text: string; cut: boolean } {
  const lines = target.split('\n');
  const head = lines[0].length > max ? `${lines[0].slice(0, max - 1)}…` : lines[0];
  const more = lines.length - 1;
  return { text: more ? `${head} … (+${more} line${more === 1 ? '' : 's'})` : head, cut: more > 0 || head !== lines[0] };
}
