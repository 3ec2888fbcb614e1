// First run: a newcomer with no agent sees what NEXUS does (the offline demo) and how to connect a real model.
import { useAgents } from '../../stores/agents.js';
import { useNav } from '../../stores/nav.js';
import { useDemo } from '../../stores/demo.js';

export function FirstRun({ fromHelp = false }: { fromHelp?: boolean }) {
  const { agents, loaded } = useAgents();
  const { start, starting, error } = useDemo();
  if (!fromHelp && (!loaded || agents.length > 0)) return null;
  return (
    <section className="first-run panel" aria-labelledby="first-run-title">
      <h2 id="first-run-title" tabIndex={-1}>
        Welcome to NEXUS
      </h2>
      {fromHelp ? (
        <button type="button" className="btn ghost small close-welcome" onClick={() => useNav.getState().showWelcome(false)}>
          Close the welcome
        </button>
      ) : null}
      <p>
        NEXUS runs AI agents on your machine and puts you between them and the world: every tool call crosses an approval stage, and every chain of agents
        acting through each other crosses an orchestration gate.
      </p>
      <p className="muted">
        No model yet? Play the <strong>offline demo</strong>: two demo agents on a scripted local model (not an AI, nothing leaves your machine) hand work to
        each other through the real approval stage and gate. You answer the cards; Recent chains shows what the chain did. It changes none of your settings.
      </p>
      <div className="first-run-actions">
        <button type="button" className="btn primary" disabled={starting} onClick={() => void start()}>
          {starting ? 'Starting…' : 'Play the offline demo'}
        </button>
        <button type="button" className="btn" onClick={() => useNav.getState().go('settings', 'models')}>
          Connect a model
        </button>
        <button type="button" className="btn ghost" onClick={() => useNav.getState().go('agents')}>
          Create an agent
        </button>
      </div>
      {error ? (
        <div className="banner error" role="alert">
          {error}
        </div>
      ) : null}
    </section>
  );
}
