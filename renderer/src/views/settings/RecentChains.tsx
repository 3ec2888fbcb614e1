// Recent chains: what each multi-agent run did, hop by hop, updated the moment a hop is answered.
import { useOrchestration, type ChainView } from '../../stores/orchestration.js';
import { ago, useNow } from '../../components/time.js';
import { shortId } from '../inbox/cards.js';
import { hopCodeWords } from './chain-text.js';

const VERDICT_LABEL: Record<ChainView['hops'][number]['verdict'], string> = {
  allowed: 'allowed',
  awaiting_approval: 'awaiting your approval',
  approved: 'approved',
  refused: 'refused',
  denied: 'denied',
};

function Chain({ chain, now }: { chain: ChainView; now: number }) {
  const waiting = chain.hops.some((h) => h.verdict === 'awaiting_approval');
  return (
    <li className="chain" data-chain-id={chain.chain_id}>
      <div className="chain-head">
        <span className="chain-agents" aria-label="Agents in the order they acted">
          {chain.agents.map((a, i) => (
            <span key={`${a}-${i}`}>
              {i ? (
                <span className="arrow" aria-hidden="true">
                  {' '}
                  →{' '}
                </span>
              ) : null}
              <strong>{a}</strong>
            </span>
          ))}
        </span>
        <span className="chain-meta">
          {waiting ? <span className="live-dot" title="A hop is waiting for you" /> : null}
          {chain.hops.length} hops · <code title={chain.chain_id}>{shortId(chain.chain_id)}</code> · {ago(chain.last_active_at, now)}
        </span>
      </div>
      <table className="hops">
        <thead>
          <tr>
            <th scope="col">Hop</th>
            <th scope="col">Agent</th>
            <th scope="col">Action</th>
            <th scope="col">Target</th>
            <th scope="col">Verdict</th>
          </tr>
        </thead>
        <tbody>
          {chain.hops.map((h) => (
            <tr key={`${h.hop}-${h.request_id ?? ''}`}>
              <td>{h.hop}</td>
              <td>{h.agent}</td>
              <td>
                <code>{h.action}</code>
              </td>
              <td className="target">{h.target || '—'}</td>
              <td>
                <span className={`verdict-pill ${h.verdict}`}>{VERDICT_LABEL[h.verdict]}</span>
                {h.code ? <code className="code-chip">{h.code}</code> : null}
                {hopCodeWords(h.code) ? <span className="denial-words">{hopCodeWords(h.code)}</span> : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </li>
  );
}

export function RecentChains() {
  const { chains, chainsLoaded, chainsError, clearChains } = useOrchestration();
  const now = useNow(15_000);
  return (
    <section className="panel" aria-labelledby="recent-chains">
      <div className="panel-head">
        <h2 id="recent-chains">Recent chains</h2>
        <button type="button" className="btn ghost" onClick={() => void clearChains()} disabled={!chains.length}>
          Clear
        </button>
      </div>
      <p className="setting-desc">
        Runs where agents acted through each other, most recently active first: this app session only, the last 50. A chain shows once it has more than one hop;
        refusals and denials are listed like admissions. Clearing forgets the list: it stops nothing and changes no limit.
      </p>
      {chainsError ? (
        <div className="banner error" role="alert">
          {chainsError}
        </div>
      ) : null}
      {!chainsLoaded ? (
        <p className="muted">Loading…</p>
      ) : chains.length === 0 ? (
        <div className="muted empty-inline">
          <p>No chains yet in this session. When one agent hands work to another and that agent acts, the chain appears here live, hop by hop.</p>
          <p>
            To let chains form, both keys must be on: the <code>nexus.orchestration</code> entitlement from your account, and the Cross-Agent Orchestration
            switch above; the agent that hands work on must be on the Orchestrators allowlist. A chain that is denied still shows here, with the reason.
          </p>
        </div>
      ) : (
        <ol className="chains">
          {chains.map((c) => (
            <Chain key={c.chain_id} chain={c} now={now} />
          ))}
        </ol>
      )}
    </section>
  );
}
