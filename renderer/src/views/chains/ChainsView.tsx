// Chains as a picture: each chain drawn as its agents and the hops between them, each hop coloured by its
// verdict with the denial code in words, and each hop linked to its run and (when held) its card.
import { useEffect } from 'react';
import { useOrchestration, type ChainView } from '../../stores/orchestration.js';
import { useRuns } from '../../stores/runs.js';
import { useNav } from '../../stores/nav.js';
import { useInbox } from '../../stores/inbox.js';
import { ago, useNow } from '../../components/time.js';
import { shortId } from '../inbox/cards.js';
import { hopCodeWords, refusedByPerson } from '../settings/chain-text.js';

const VERDICT_WORDS: Record<ChainView['hops'][number]['verdict'], string> = {
  allowed: 'allowed',
  awaiting_approval: 'waiting for you',
  approved: 'approved by you',
  refused: 'refused by you',
  denied: 'denied by the gate',
};

function Hop({ chain, hop }: { chain: ChainView; hop: ChainView['hops'][number] }) {
  const runs = useRuns((s) => s.runs);
  // The agent's run in this chain; the starter's own run carries no chain id: its latest run then.
  const run =
    runs.find((r) => r.chain_id === chain.chain_id && r.agent === hop.agent) ??
    (hop.agent === chain.agents[0] ? runs.find((r) => r.agent === hop.agent && !r.chain_id) : undefined);
  const held = hop.request_id && hop.verdict === 'awaiting_approval';
  const words = hopCodeWords(hop.code);
  return (
    <li className={`hop-node verdict-${hop.verdict}`} data-hop={hop.hop}>
      <span className="hop-arrow" aria-hidden="true">
        →
      </span>
      <div className="hop-box">
        <div className="hop-title">
          <span className="hop-no">hop {hop.hop}</span> <strong>{hop.agent}</strong> <code>{hop.action}</code>
          {hop.target ? <span className="hop-target"> {hop.target}</span> : null}
        </div>
        <div className={`verdict-pill ${hop.verdict}`}>{hop.verdict === 'refused' && !refusedByPerson(hop) ? 'refused' : VERDICT_WORDS[hop.verdict]}</div>
        {words ? (
          <div className="denial-words">
            {words} <code className="code-chip">{hop.code}</code>
          </div>
        ) : null}
        <div className="hop-links">
          {run ? (
            <button
              type="button"
              className="link"
              onClick={() => {
                useRuns.getState().open(run.id);
                useNav.getState().go('runs');
              }}
            >
              Open {hop.agent}'s run
            </button>
          ) : (
            <span className="muted">run not listed</span>
          )}
          {held ? (
            <a
              className="link"
              href={`#/inbox/${encodeURIComponent(hop.request_id!)}`}
              onClick={() => {
                useInbox.getState().select(hop.request_id!);
              }}
            >
              Answer the card
            </a>
          ) : null}
        </div>
      </div>
    </li>
  );
}

function ChainPicture({ chain, now }: { chain: ChainView; now: number }) {
  const starter = chain.agents[0];
  return (
    <li className="chain-picture" data-chain-id={chain.chain_id}>
      <h2>
        {chain.agents.join(' → ')}{' '}
        <span className="muted small">
          · <code title={chain.chain_id}>{shortId(chain.chain_id)}</code> · {chain.hops.length} hops · {ago(chain.last_active_at, now)}
        </span>
      </h2>
      <ol className="hop-track" aria-label={`Hops of chain ${shortId(chain.chain_id)}`}>
        <li className="hop-start">
          <div className="hop-box start">
            <strong>{starter}</strong>
            <div className="muted small">started the chain</div>
          </div>
        </li>
        {chain.hops.map((h) => (
          <Hop key={`${h.hop}-${h.request_id ?? ''}`} chain={chain} hop={h} />
        ))}
      </ol>
    </li>
  );
}

export function ChainsView() {
  const { chains, chainsLoaded, chainsError } = useOrchestration();
  const now = useNow(15_000);
  useEffect(() => {
    void useRuns.getState().refresh(); // hop → run links
  }, []);
  return (
    <div className="chains-view" tabIndex={0} role="region" aria-labelledby="chains-title">
      <header className="page-head">
        <h1 id="chains-title">Chains</h1>
        <p className="muted">
          Agents acting through each other, most recently active first (this app session, the last 50). Green hops were allowed or approved, amber waits for
          you, red was refused or denied; a denial says why.
        </p>
      </header>
      {chainsError ? (
        <div className="banner error" role="alert">
          {chainsError}
        </div>
      ) : null}
      {!chainsLoaded ? (
        <p className="muted">Loading…</p>
      ) : chains.length === 0 ? (
        <p className="muted">No chains yet in this session. When one agent hands work to another, the chain is drawn here live, hop by hop.</p>
      ) : (
        <ol className="chain-pictures" aria-label="Chains">
          {chains.map((c) => (
            <ChainPicture key={c.chain_id} chain={c} now={now} />
          ))}
        </ol>
      )}
    </div>
  );
}
