// Shown while the offline demo's agents exist, so nobody mistakes the scripted model for a real one; it says
// what the demo will show next, and removes the demo agents when asked.
import { useAgents } from '../../stores/agents.js';
import { useDemo } from '../../stores/demo.js';
import { useNav } from '../../stores/nav.js';
import { call, messageOf } from '../../api/client.js';
import { useState } from 'react';

export const isDemoAgent = (a: { name: string; model: { model: string } }) => a.name.startsWith('demo-') && a.model.model.startsWith('nexus-demo');

export function DemoBanner() {
  const agents = useAgents((s) => s.agents);
  const demoAgents = agents.filter(isDemoAgent);
  const { expect: next, dismiss, start, starting, error } = useDemo();
  const [note, setNote] = useState<string | null>(null);
  if (!demoAgents.length) return null;
  const remove = async () => {
    try {
      for (const a of demoAgents) await call('agentsRemove', { name: a.name });
      dismiss();
    } catch (e) {
      setNote(messageOf(e));
    }
  };
  return (
    <div className="demo-banner" role="note" aria-label="Offline demo">
      <div className="demo-line">
        <strong>OFFLINE DEMO</strong>
        <span>
          The demo agents run on a scripted model inside NEXUS, not an AI. The approval stage, the orchestration gate and the cards are real.
        </span>
        <span className="demo-actions">
          {/* The first-run panel that starts the demo is gone once the demo agents exist: play it again from
              here (e.g. after switching orchestration on, to see a hold instead of a denial). */}
          <button type="button" className="link" disabled={starting} onClick={() => void start()}>
            {starting ? 'Starting…' : 'Play the demo again'}
          </button>
          <button type="button" className="link" onClick={() => useNav.getState().go('settings', 'orchestration')}>
            Recent chains
          </button>
          <button type="button" className="link" onClick={() => useNav.getState().go('settings', 'models')}>
            Add a real model
          </button>
          <button type="button" className="link" onClick={() => void remove()}>
            Remove the demo agents
          </button>
        </span>
      </div>
      {next ? (
        <p className="demo-next">
          <strong>What happens next:</strong> {next}{' '}
          <button type="button" className="link" onClick={dismiss}>
            Got it
          </button>
        </p>
      ) : null}
      {note || error ? <p className="demo-next" role="alert">{note ?? error}</p> : null}
    </div>
  );
}
