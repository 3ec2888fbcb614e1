// The Runs list's filters: one agent, one state, one client. Each active filter is said in words with a way
// to clear it (a hidden filter must never leave the list empty without saying why).
import { useMemo } from 'react';
import { useRuns, type RunsFilter as Filter } from '../../stores/runs.js';
import { useAgents } from '../../stores/agents.js';
import { RUN_STATUSES } from '../../../../shared/types.js';
import { FilterSelect, type FilterOption } from './FilterSelect.js';

const CLIENTS: { value: NonNullable<Filter['client']>; label: string }[] = [
  { value: 'none', label: 'No client (NEXUS agents, standalone)' },
  { value: 'claude-code', label: 'Claude Code sessions' },
  { value: 'codex', label: 'Codex sessions' },
  { value: 'gemini', label: 'Gemini CLI sessions' },
  { value: 'opencode', label: 'OpenCode sessions' },
];
const STATES: FilterOption[] = RUN_STATUSES.map((s) => ({ value: s, label: s }));
const isStatus = (v: string): v is NonNullable<Filter['status']> => RUN_STATUSES.some((s) => s === v);
const isClient = (v: string): v is NonNullable<Filter['client']> => CLIENTS.some((c) => c.value === v);

export function RunsFilter() {
  const filter = useRuns((s) => s.filter);
  const setFilter = useRuns((s) => s.setFilter);
  const all = useAgents((s) => s.agents);
  // The filtered agent stays an option even once it is gone, so the select always shows what filters.
  const agents = useMemo(() => {
    const n = all.map((a) => a.name);
    return (filter.agent && !n.includes(filter.agent) ? [...n, filter.agent] : n).map((name) => ({ value: name, label: name }));
  }, [all, filter.agent]);
  const active = Object.keys(filter).length;
  return (
    <div className="runs-filter" role="group" aria-label="Filter runs">
      <FilterSelect label="Agent" all="All agents" value={filter.agent} options={agents} onChange={(v) => setFilter({ ...filter, agent: v || undefined })} />
      <FilterSelect
        label="State"
        all="All states"
        value={filter.status}
        options={STATES}
        onChange={(v) => setFilter({ ...filter, status: isStatus(v) ? v : undefined })}
      />
      <FilterSelect
        label="Client"
        all="All clients"
        value={filter.client}
        options={CLIENTS}
        onChange={(v) => setFilter({ ...filter, client: isClient(v) ? v : undefined })}
      />
      {active ? (
        <button type="button" className="btn small ghost" onClick={() => setFilter({})}>
          Clear {active === 1 ? 'filter' : `${active} filters`}
        </button>
      ) : null}
    </div>
  );
}
