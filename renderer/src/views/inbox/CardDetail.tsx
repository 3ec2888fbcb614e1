// One card in full: who wants to do what to what (said once), why (what the agent said just before, the
// chain's path), and only the answers that work for its kind.
import { lazy, memo, Suspense, useState } from 'react';
import { useInbox, type InboxItem } from '../../stores/inbox.js';
import { useNav } from '../../stores/nav.js';
import { useRuns } from '../../stores/runs.js';
import { KIND_LABEL, askerLine, readableInput, shortId, actionsOf, runLabel, titleTarget } from './cards.js';
import { timeLeft } from '../../components/time.js';
import { ChainPathLine, Said, useCardContext } from './CardContext.js';
import { classifyDanger } from '../../../../shared/inbox/danger.js';
import type { EffectProfile } from '../../../../shared/types.js';
import type { Trust } from '../../stores/inbox-state.js';
import { callScope } from '../../../../shared/trust.js';
import { CardInput, Diff } from './CardInput.js';
import { CallAnswers } from './CallAnswers.js';

// Loaded when first opened: the rule language (compile, lint) is not needed to paint the inbox.
const AllowRule = lazy(() => import('./AllowRule.js').then((m) => ({ default: m.AllowRule })));

interface Props {
  item: InboxItem;
  reason: string;
  setReason(s: string): void;
  now: number;
  /** Approve through the view (a dangerous call asks for a second confirm first). */
  onApprove(item: InboxItem, trust?: Trust): void;
}

// Memoized, with the store's answer functions picked one by one (they never change): a card leaving the list
// elsewhere re-rendered the whole card shown here, its danger check, input and run line, on every such event.
export const CardDetail = memo(function CardDetail({ item, reason, setReason, now, onApprove }: Props) {
  const retry = useInbox((s) => s.retry);
  const abandon = useInbox((s) => s.abandon);
  const answer = useInbox((s) => s.answer);
  const busy = useInbox((s) => Boolean(s.busy[item.id]));
  const [reply, setReply] = useState('');
  const [allowing, setAllowing] = useState(false);
  const ctx = useCardContext(item);
  const effect = item.effect as Partial<EffectProfile> | undefined;
  const input = readableInput(item.tool, effect?.input);
  const left = timeLeft(item.expires_at, now);
  const title = titleTarget(item.target);
  const actions = actionsOf(item);
  const isCall = item.kind === 'autonomy' || item.kind === 'orchestration';
  const danger = isCall ? classifyDanger(item.tool, effect?.input, effect?.workspace) : [];
  const trustable = item.kind === 'autonomy' && item.trustable !== false && !item.escape;
  const sameCommand = trustable && callScope(item.tool, effect?.input).key === 'command';
  const openRun = () => {
    useRuns.getState().open(item.run_id);
    useNav.getState().go('runs');
  };

  return (
    <article className={`card-detail kind-${item.kind}`} aria-labelledby={`card-${item.id}-title`} data-card-id={item.id}>
      <header className="card-head">
        <span className={`kind-badge big ${item.kind}`}>{KIND_LABEL[item.kind]}</span>
        <h2 id={`card-${item.id}-title`} tabIndex={-1} className="card-title">
          {item.kind === 'question' ? (
            <>{item.agent ?? 'Your run'} asks you a question</>
          ) : item.kind === 'attention' ? (
            <>{item.agent ?? 'A run'} needs your attention</>
          ) : (
            <>
              {item.agent ?? 'Standalone run'} wants to use <code>{item.tool}</code>
              {effect?.runner ? <span className="muted"> via {effect.runner}</span> : null}
              {item.target ? (
                <>
                  {' '}
                  on <span className="target">{title.text}</span>
                </>
              ) : null}
            </>
          )}
        </h2>
        <p className="asker">{askerLine(item)}</p>
        {item.kind === 'orchestration' ? <ChainPathLine item={item} /> : null}
        {item.containment ? <p role="note">Runs in {item.containment}.</p> : null}
        {item.escape ? (
          <p className="unsandboxed" role="note">
            Escape: {item.escape} Approve only if you would run it yourself; it is never trusted or made a rule.
          </p>
        ) : null}
        {effect?.sandboxed === false ? (
          <p className="unsandboxed" role="note">
            Unsandboxed: the sandbox is off for this agent, so this call would run with your full rights.
          </p>
        ) : null}
      </header>

      {ctx.said ? <Said text={ctx.said} agent={item.agent} /> : null}

      {danger.length ? (
        <div className="danger-note" role="note" aria-label="Why this call needs a second look">
          <strong>Look twice:</strong>
          <ul>
            {danger.map((d) => (
              <li key={d.kind}>{d.message}</li>
            ))}
          </ul>
        </div>
      ) : null}

      <dl className="facts">
        <div>
          <dt>Run</dt>
          <dd>
            <button type="button" className="link" onClick={openRun} title={item.run_id}>
              {runLabel(ctx.run?.agent ?? item.agent, ctx.run?.created_at)}
            </button>
          </dd>
        </div>
        {item.chain_id ? (
          <div>
            <dt>Chain</dt>
            <dd>
              hop {item.hop ?? '?'} · <code title={item.chain_id}>{shortId(item.chain_id)}</code>
            </dd>
          </div>
        ) : null}
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

      {isCall && effect ? <CardInput item={item} input={input} cut={title.cut} /> : null}
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

      {isCall ? (
        <CallAnswers
          item={item}
          busy={busy}
          looksDangerous={danger.length > 0}
          trustable={trustable}
          sameCommand={sameCommand}
          reason={reason}
          setReason={setReason}
          allowing={allowing}
          setAllowing={setAllowing}
          onApprove={onApprove}
        />
      ) : null}
      {allowing ? (
        <Suspense fallback={<p className="muted">Loading…</p>}>
          <AllowRule item={item} onClose={() => setAllowing(false)} onApprove={onApprove} />
        </Suspense>
      ) : null}
      {item.kind === 'attention' ? (
        <footer className="card-actions">
          {actions.includes('retry') ? (
            <button type="button" className="btn primary" disabled={busy} onClick={() => retry(item.id)}>
              Retry
            </button>
          ) : null}
          <button type="button" className={`btn ${actions.includes('retry') ? '' : 'primary'}`} disabled={busy} onClick={() => abandon(item.id)}>
            {actions.includes('retry') ? 'Abandon' : 'Dismiss'}
          </button>
        </footer>
      ) : null}
      {actions.includes('answer') ? (
        // A question card, or (under mode ask) the `ask` call's own card: answering it there approves the call
        // and answers the question in one step, so no second card follows.
        <form
          className="card-actions column"
          onSubmit={(e) => {
            e.preventDefault();
            if (reply.trim()) void answer(item.id, reply).then(() => setReply(''));
          }}
        >
          <textarea
            className="input"
            rows={4}
            aria-label={item.kind === 'question' ? 'Your answer' : 'Your answer to its question (approves the call)'}
            value={reply}
            onChange={(e) => setReply(e.target.value)}
            placeholder="Type your answer…"
          />
          <button type="submit" className={`btn ${item.kind === 'question' ? 'primary' : ''}`} disabled={busy || !reply.trim()}>
            {item.kind === 'question' ? 'Send answer' : 'Approve and answer'}
          </button>
        </form>
      ) : null}
    </article>
  );
});
