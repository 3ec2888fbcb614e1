// One approval card in full: who asks, what the agent wants to do, to what, and the answers.
import { useState } from 'react';
import { useInbox, type InboxItem } from '../../stores/inbox.js';
import { useNav } from '../../stores/nav.js';
import { useRuns } from '../../stores/runs.js';
import { KIND_LABEL, askerLine, remedyLine, readableInput, diffLines, shortId } from './cards.js';
import { timeLeft } from '../../components/time.js';
import type { EffectProfile } from '../../../../shared/types.js';

function Diff({ diff }: { diff: string }) {
  return (
    <pre className="diff" aria-label="Changes">
      {diffLines(diff).map((l, i) => (
        <div key={i} className={`diff-line ${l.sign === '+' ? 'add' : l.sign === '-' ? 'del' : l.sign === '@' ? 'hunk' : ''}`}>
          <span className="diff-sign" aria-hidden="true">
            {l.sign === '@' ? '' : l.sign}
          </span>
          {l.text || ' '}
        </div>
      ))}
    </pre>
  );
}

export function CardDetail({ item, reason, setReason, now }: { item: InboxItem; reason: string; setReason(s: string): void; now: number }) {
  const { approve, deny, retry, abandon, answer } = useInbox();
  const busy = useInbox((s) => Boolean(s.busy[item.id]));
  const [reply, setReply] = useState('');
  const effect = item.effect as Partial<EffectProfile> | undefined;
  const input = readableInput(item.tool, effect?.input);
  const left = timeLeft(item.expires_at, now);
  const openRun = () => {
    useRuns.getState().open(item.run_id);
    useNav.getState().go('runs');
  };
  const isCard = item.kind === 'autonomy' || item.kind === 'orchestration';

  return (
    <article className={`card-detail kind-${item.kind}`} aria-labelledby={`card-${item.id}-title`} data-card-id={item.id}>
      <header className="card-head">
        <span className={`kind-badge big ${item.kind}`}>{KIND_LABEL[item.kind]}</span>
        <h2 id={`card-${item.id}-title`}>
          {item.kind === 'question' ? (
            <>{item.agent ?? 'Your run'} asks you a question</>
          ) : item.kind === 'attention' ? (
            <>{item.agent ?? 'A run'} needs your attention</>
          ) : (
            <>
              {item.agent ?? 'Standalone run'} wants to use <code>{item.tool}</code>
            </>
          )}
        </h2>
        <p className="asker">{askerLine(item)}</p>
      </header>

      <dl className="facts">
        <div>
          <dt>Agent</dt>
          <dd>{item.agent ?? '— (your own run)'}</dd>
        </div>
        {item.kind === 'question' ? null : (
        <>
        <div>
          <dt>Action</dt>
          <dd>
            <code>{item.tool}</code>
            {effect?.runner ? <span className="muted"> via {effect.runner}</span> : null}
            {effect?.sandboxed === false ? <strong className="unsandboxed"> · unsandboxed: the sandbox is off for this agent</strong> : null}
          </dd>
        </div>
        <div>
          <dt>Acts on</dt>
          <dd className="target">{item.target || '—'}</dd>
        </div>
        </>
        )}
        {item.kind === 'orchestration' || item.hop ? (
          <div>
            <dt>Chain</dt>
            <dd>
              hop {item.hop ?? '?'} · chain <code title={item.chain_id}>{shortId(item.chain_id)}</code>
            </dd>
          </div>
        ) : null}
        <div>
          <dt>Run</dt>
          <dd>
            <button type="button" className="link" onClick={openRun}>
              {shortId(item.run_id)}
            </button>
          </dd>
        </div>
        {left ? (
          <div>
            <dt>Time left</dt>
            <dd className="time-left">{left}</dd>
          </div>
        ) : null}
        {effect?.client ? (
          <div>
            <dt>Client</dt>
            <dd>
              {effect.client.name} · session <code title={effect.client.session_id}>{shortId(effect.client.session_id)}</code>
            </dd>
          </div>
        ) : null}
        {effect?.workspace ? (
          <div>
            <dt>{effect.client ? 'Folder' : 'Workspace'}</dt>
            <dd className="target">{effect.workspace}</dd>
          </div>
        ) : null}
      </dl>

      {item.message ? <p className={`card-message ${item.kind === 'question' ? 'question' : ''}`}>{item.message}</p> : null}

      {isCard && effect ? (
        <section className="card-section">
          <h3>{input.kind === 'command' ? 'Command' : 'Input'}</h3>
          <pre className={`code ${input.kind}`}>{input.text}</pre>
        </section>
      ) : null}
      {effect?.diff ? (
        <section className="card-section">
          <h3>Changes</h3>
          <Diff diff={effect.diff} />
        </section>
      ) : null}
      {effect?.matched_rules?.length ? (
        <section className="card-section">
          <h3>Matching rules</h3>
          <ul className="rule-list">
            {effect.matched_rules.map((r, i) => (
              <li key={i}>
                <span className={`verdict ${r.verdict}`}>{r.verdict}</span> <code>{JSON.stringify(r)}</code>
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      {isCard ? (
        <footer className="card-actions">
          <div className="answer-buttons">
            <button type="button" className="btn primary" disabled={busy} onClick={() => approve(item.id)}>
              Approve
            </button>
            {item.kind === 'autonomy' && item.trustable !== false ? (
              <button
                type="button"
                className="btn"
                disabled={busy}
                title="Approve, and grant this agent's later autonomy prompts until the app quits. Deny rules still bind; orchestration holds are never covered."
                onClick={() => approve(item.id, true)}
              >
                Trust for this session
              </button>
            ) : null}
          </div>
          <div className="deny-group">
            <input
              className="input"
              aria-label="Reason for denying (optional)"
              placeholder="Reason (optional, the agent reads it)"
              value={reason}
              maxLength={4096}
              onChange={(e) => setReason(e.target.value)}
            />
            <button type="button" className="btn danger-outline" disabled={busy} onClick={() => deny(item.id, reason)}>
              Deny
            </button>
          </div>
          {remedyLine(item) ? <p className="remedy">{remedyLine(item)}</p> : null}
        </footer>
      ) : null}
      {item.kind === 'attention' ? (
        <footer className="card-actions">
          <button type="button" className="btn primary" disabled={busy} onClick={() => retry(item.id)}>
            Retry
          </button>
          <button type="button" className="btn" disabled={busy} onClick={() => abandon(item.id)}>
            Abandon
          </button>
        </footer>
      ) : null}
      {item.kind === 'question' ? (
        <form
          className="card-actions column"
          onSubmit={(e) => {
            e.preventDefault();
            if (reply.trim()) void answer(item.id, reply).then(() => setReply(''));
          }}
        >
          <textarea className="input" rows={4} aria-label="Your answer" value={reply} onChange={(e) => setReply(e.target.value)} placeholder="Type your answer…" />
          <button type="submit" className="btn primary" disabled={busy || !reply.trim()}>
            Send answer
          </button>
        </form>
      ) : null}
    </article>
  );
}
