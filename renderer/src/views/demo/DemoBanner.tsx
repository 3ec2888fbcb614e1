// Shown while the offline demo's agents exist, so nobody mistakes the scripted model for a real one; it says
// what the demo will show next, and removes the demo agents when asked.
import { useAgents } from '../../stores/agents.js';
import { useDemo } from '../../stores/demo.js';
import { useNav } from '../../stores/nav.js';
import { call } from '../../api/client.js';
import { useState } from 'react';
import { errorMessage } from '../../../../shared/errors.js';

/** Settings ▸ Orchestration, scrolled to its Recent chains list (the page loads lazily: wait for the list). */
function showRecentChains() {
  useNav.getState().go('settings', 'orchestration');
  const until = Date.now() + 3000;
  const look = () => {
    const el = document.getElementById('recent-chains');
    if (el) {
      el.scrollIntoView({ block: 'start' });
      return;
    }
    if (Date.now() < until) requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
}

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
      setNote(errorMessage(e));
    }
  };
  return (
    <section className="demo-banner-wrap" aria-label="Demo">
      <div className="demo-banner" role="note" aria-label="Offline demo">
        <div className="demo-line">
          <strong>OFFLINE DEMO</strong>
          <span className="demo-summary">Scripted agents, not an AI. The cards and the gate are real.</span>
          <span className="demo-actions">
            {/* The first-run panel that starts the demo is gone once the demo agents exist: play it again from
              here (e.g. after switching orchestration on, to see a hold instead of a denial). */}
            <button type="button" className="link" disabled={starting} onClick={() => void start()}>
              {starting ? 'Starting…' : 'Play the demo again'}
            </button>
            <button type="button" className="link" onClick={() => showRecentChains()}>
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
          <div className="demo-next-row">
            <details className="demo-next">
              <summary>What happens next</summary> {next}
            </details>
            <button type="button" className="link" onClick={dismiss}>
              Got it
            </button>
          </div>
        ) : null}
        {note || error ? (
          <p className="demo-next" role="alert">
            {note ?? error}
          </p>
        ) : null}
      </div>
    </section>
  );
}
