// Agents: the profiles on the left, the one being edited on the right.
import { useAgents } from '../../stores/agents.js';
import { AgentEditor } from './AgentEditor.js';
import { Empty } from '../../components/Empty.js';

export function AgentsView() {
  const { agents, loaded, error, editing, edit } = useAgents();
  const open = editing && editing !== 'new' ? (agents.find((a) => a.name === editing) ?? null) : null;
  return (
    <div className="split">
      <aside className="list-pane">
        <div className="queue-head">
          <h1>Agents</h1>
          <button type="button" className="btn small" onClick={() => edit('new')}>
            New agent
          </button>
        </div>
        {error ? <div className="banner error">{error}</div> : null}
        <ul className="item-list" aria-label="Agents">
          {agents.map((a) => (
            <li key={a.name}>
              <button
                type="button"
                className={`item ${editing === a.name ? 'selected' : ''}`}
                aria-current={editing === a.name || undefined}
                onClick={() => edit(a.name)}
              >
                <strong>{a.name}</strong>
                <span className="muted">
                  {a.mode} · {a.model.model}
                </span>
              </button>
            </li>
          ))}
          {loaded && agents.length === 0 ? <li className="muted pad">No agents yet.</li> : null}
        </ul>
      </aside>
      <section className="detail-pane" tabIndex={0} aria-label="Agent">
        {editing === 'new' || open ? (
          <AgentEditor key={editing ?? ''} agent={open} />
        ) : (
          <Empty title="Agents are profiles" icon="◎">
            <p>
              An agent names its model, its instructions, its tools and workspace, and how its tool calls are approved: a <strong>mode</strong> (<em>ask</em>,{' '}
              <em>rules</em> or <em>bypass</em>) and a list of <strong>approval rules</strong>. Both are frozen onto each run.
            </p>
            <p>Pick an agent on the left, or create one. The rule editor checks your list as you type and lets you test a call against it.</p>
          </Empty>
        )}
      </section>
    </div>
  );
}
