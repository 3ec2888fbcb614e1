// The Runs list's filters: one agent, one state, one client. Each active filter is said in words with a way
// to clear it (a hidden filter must never leave the list empty without saying why).
import { useMemo } from 'react';
import { useRuns, type RunsFilter as Filter } from '../../stores/runs.js';
import { useAgents } from '../../stores/agents.js';
import { RUN_STATUSES } from '../../../../shared/types.js';

const CLIENTS: { id: NonNullable<Filter['client']>; label: string }[] = [
  { id: 'none', label: 'No client (NEXUS agents, standalone)' },
  { id: 'claude-code', label: 'Claude Code sessions' },
  { id: 'codex', label: 'Codex sessions' },
  { id: 'gemini', label: 'Gemini CLI sessions' },
  { id: 'opencode', label: 'OpenCode sessions' },
];
const isStatus = (v: string): v is NonNullable<Filter['status']> => RUN_STATUSES.some((s) => s === v);
const isClient = (v: string): v is NonNullable<Filter['client']> => CLIENTS.some((c) => c.id === v);

export function RunsFilter() {
  const filter = useRuns((s) => s.filter);
  const setFilter = useRuns((s) => s.setFilter);
  const all = useAgents((s) => s.agents);
  // The filtered agent stays an option even once it is gone, so the select always shows what filters.
  const names = useMemo(() => {
    const n = all.map((a) => a.name);
    return filter.agent && !n.includes(filter.agent) ? [...n, filter.agent] : n;
  }, [all, filter.agent]);
  const active = Object.keys(filter).length;
  return (
    <div className="runs-filter" role="group" aria-label="Filter runs">
      <label>
        <span className="small muted">Agent</span>
        <select
          className="input small"
          aria-label="Agent"
          value={filter.agent ?? ''}
          onChange={(e) => setFilter({ ...filter, agent: e.target.value || undefined })}
        >
          <option value="">All agents</option>
          {names.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
      </label>
      <label>
        <span className="small muted">State</span>
        <select
          className="input small"
          aria-label="State"
          value={filter.status ?? ''}
          onChange={(e) => setFilter({ ...filter, status: isStatus(e.target.value) ? e.target.value : undefined })}
        >
          <option value="">All states</option>
          {RUN_STATUSES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </label>
      <label>
        <span className="small muted">Client</span>
        <select
          className="input small"
          aria-label="Client"
          value={filter.client ?? ''}
          onChange={(e) => setFilter({ ...filter, client: isClient(e.target.value) ? e.target.value : undefined })}
        >
          <option value="">All clients</option>
          {CLIENTS.map((c) => (
            <option key={c.id} value={c.id}>
              {c.label}
            </option>
          ))}
        </select>
      </label>
      {active ? (
        <button type="button" className="btn small ghost" onClick={() => setFilter({})}>
          Clear {active === 1 ? 'filter' : `${active} filters`}
        </button>
      ) : null}
    </div>
  );
}
