// Why a card exists: what the agent said just before the call (trimmed, the rest on demand), and for a hold
// the chain's path and who handed the work on. Fetched for the card on screen only (inboxContext).
import { useEffect, useState } from 'react';
import { call } from '../../api/client.js';
import { useOrchestration } from '../../stores/orchestration.js';
import type { InboxItem } from '../../stores/inbox.js';
import { chainPath, trimSaid } from './cards.js';

export interface CardRun {
  id: string;
  agent: string | null;
  created_at: string;
}

// A run's agent and start never change: asked once per run. A standalone run has no model that said
// anything, so its next card needs no request at all (one approval stays under 1 KB on the wire).
const runs = new Map<string, CardRun>();

export function useCardContext(item: Pick<InboxItem, 'id' | 'run_id' | 'agent'>): { said: string | null; run: CardRun | null; loaded: boolean } {
  const { id, run_id, agent } = item;
  const known = runs.get(run_id) ?? null;
  const [ctx, setCtx] = useState<{ said: string | null; run: CardRun | null; loaded: boolean }>({ said: null, run: known, loaded: false });
  useEffect(() => {
    let stale = false;
    if (agent === null && runs.has(run_id)) return setCtx({ said: null, run: runs.get(run_id)!, loaded: true });
    call('inboxContext', { id })
      .then((c) => {
        if (c.run) runs.set(c.run.id, c.run);
        if (!stale) setCtx({ said: c.said, run: c.run, loaded: true });
      })
      .catch(() => !stale && setCtx({ said: null, run: null, loaded: true }));
    return () => {
      stale = true;
    };
  }, [id, run_id, agent]);
  return ctx;
}

export function Said({ text, agent }: { text: string; agent: string | null }) {
  const [open, setOpen] = useState(false);
  const { short, cut } = trimSaid(text);
  return (
    <section className="card-said" aria-label={`What ${agent ?? 'the agent'} said before this call`}>
      <h3>{agent ?? 'The agent'} said just before</h3>
      <blockquote id="card-said-text">{open ? text : short}</blockquote>
      {cut ? (
        <button type="button" className="link" aria-expanded={open} aria-controls="card-said-text" onClick={() => setOpen(!open)}>
          {open ? 'Show less' : 'Show more'}
        </button>
      ) : null}
    </section>
  );
}

export function ChainPathLine({ item }: { item: InboxItem }) {
  const chain = useOrchestration((s) => s.chains.find((c) => c.chain_id === item.chain_id));
  const { path, handedBy } = chainPath(chain, item.hop, item.agent);
  if (path.length < 2 && !handedBy) return null;
  return (
    <p className="chain-path" aria-label="Chain path">
      {path.map((a, i) => (
        <span key={`${a}-${i}`}>
          {i ? <span aria-hidden="true"> → </span> : null}
          {i ? <span className="sr-only"> then </span> : null}
          <strong>{a}</strong>
        </span>
      ))}
      {handedBy ? <span className="muted"> · handed on by {handedBy}</span> : null}
    </p>
  );
}
