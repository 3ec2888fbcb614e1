// The Inbox at a team desk: other machines' pending cards, grouped by the machine each will run on, below this
// machine's own queue (which stays first). Answering one sends the answer to the desk; its owner applies the
// first answer it commits and the card leaves every Inbox.
import { useState } from 'react';
import { useDesk, byMachine, type DeskCard } from '../../stores/desk.js';
import { timeLeft } from '../../components/time.js';
import { DangerConfirm } from './DangerConfirm.js';
import { classifyDanger, type DangerFinding } from '../../../../shared/inbox/danger.js';

/** A desk card carries its command as its target: the same second look a local card gets before approval. */
const findingsOf = (card: DeskCard): DangerFinding[] => classifyDanger(card.tool, { command: card.target });

function Card({ card, now, canAnswer, onApprove }: { card: DeskCard; now: number; canAnswer: boolean; onApprove(card: DeskCard): void }) {
  const answering = useDesk((d) => d.answering);
  const what = `${card.agent ?? 'standalone run'} ${card.tool} ${card.target}`.slice(0, 120);
  const left = timeLeft(card.expires_at, now);
  return (
    <li className="desk-card" data-desk-card={card.id} data-machine={card.machine}>
      <span className="row-top">
        <span className="machine-chip" title={`Runs on ${card.machine}`}>
          runs on {card.machine}
        </span>
        <span className="row-time">{left ?? ''}</span>
      </span>
      <span className="row-main">
        <strong>{card.agent ?? 'standalone run'}</strong> · <code>{card.tool}</code>
      </span>
      <span className="row-target">{card.target || '—'}</span>
      {canAnswer ? (
        <span className="inline-form">
          <button
            type="button"
            className="btn small primary"
            disabled={answering !== null}
            aria-label={`Approve ${what} on ${card.machine}`}
            onClick={() => onApprove(card)}
          >
            Approve
          </button>
          <button
            type="button"
            className="btn small"
            disabled={answering !== null}
            aria-label={`Deny ${what} on ${card.machine}`}
            onClick={() => void useDesk.getState().answer(card, 'deny')}
          >
            Deny
          </button>
        </span>
      ) : null}
    </li>
  );
}

export function DeskGroups({ now }: { now: number }) {
  const status = useDesk((d) => d.status);
  const cards = useDesk((d) => d.cards);
  const error = useDesk((d) => d.error);
  const answered = useDesk((d) => d.answered);
  const [danger, setDanger] = useState<{ card: DeskCard; findings: DangerFinding[] } | null>(null);
  if (!status?.joined) return null;
  const approve = (card: DeskCard) => {
    const findings = findingsOf(card);
    if (findings.length) setDanger({ card, findings });
    else void useDesk.getState().answer(card, 'approve');
  };
  const groups = byMachine(cards);
  const canAnswer = Boolean(status.person);
  return (
    <section className="desk-groups" aria-labelledby="desk-groups-title" data-testid="desk-groups">
      <h2 id="desk-groups-title">
        Other machines at the desk · {cards.length} waiting{status.connected ? '' : ' (not connected: this list may be old)'}
      </h2>
      {error ? <p className="banner error">{error}</p> : null}
      <div role="status" aria-live="polite">
        {answered ? <p className={`banner ${answered.ok ? 'ok' : 'error'}`}>{answered.text}</p> : null}
      </div>
      {!canAnswer && cards.length ? (
        <p className="muted small">No desk person is set for this machine, so these cards can be read here but not answered.</p>
      ) : null}
      {groups.length === 0 ? <p className="muted small">No card of another machine waits.</p> : null}
      {groups.map((g) => (
        <div className="desk-group" key={g.machine} data-group-machine={g.machine}>
          <h3>
            <span>{g.machine}</span>
            <span className="muted">{g.cards.length} waiting</span>
          </h3>
          <ul aria-label={`Cards that run on ${g.machine}`} style={{ padding: 0, margin: 0 }}>
            {g.cards.map((c) => (
              <Card key={`${c.machine}/${c.id}`} card={c} now={now} canAnswer={canAnswer} onApprove={approve} />
            ))}
          </ul>
        </div>
      ))}
      {danger ? (
        <DangerConfirm
          call={`${danger.card.tool} ${danger.card.target}`}
          machine={danger.card.machine}
          findings={danger.findings}
          onConfirm={() => {
            const d = danger;
            setDanger(null);
            void useDesk.getState().answer(d.card, 'approve');
          }}
          onCancel={() => setDanger(null)}
        />
      ) : null}
    </section>
  );
}

/** "This machine · NAME": the heading over the local queue when this machine is at a desk. */
export function LocalMachineLine() {
  const status = useDesk((d) => d.status);
  if (!status?.joined || !status.machine) return null;
  return (
    <p className="queue-machine" data-testid="queue-machine">
      This machine: <strong>{status.machine}</strong> · its cards run here
    </p>
  );
}
