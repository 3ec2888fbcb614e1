// First run: a newcomer with no agent sees what NEXUS does and how to connect a real model.
import { useAgents } from '../../stores/agents.js';
import { useNav } from '../../stores/nav.js';

export function FirstRun() {
  const { agents, loaded } = useAgents();
  if (!loaded || agents.length > 0) return null;
  return (
    <section className="first-run panel" aria-labelledby="first-run-title">
      <h2 id="first-run-title">Welcome to NEXUS</h2>
      <p>
        NEXUS runs AI agents on your machine and puts you between them and the world: every tool call crosses an approval stage, and every
        chain of agents acting through each other crosses an orchestration gate.
      </p>
      <div className="first-run-actions">
        <button type="button" className="btn" onClick={() => useNav.getState().go('settings', 'models')}>
          Connect a model
        </button>
        <button type="button" className="btn ghost" onClick={() => useNav.getState().go('agents')}>
          Create an agent
        </button>
      </div>
    </section>
  );
}
