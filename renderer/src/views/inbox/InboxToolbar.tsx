// Above the queue: filter (text, kind), group (by agent, run or chain: each group a filter with its count),
// and the bulk answer for the checked cards, confirmed with the count and the calls named.
import { useEffect, useState } from 'react';
import { useInbox, type GroupBy, type InboxFilter } from '../../stores/inbox.js';
import { BulkConfirm } from './BulkConfirm.js';

import { shortId } from './cards.js';
import { FilterChips } from './FilterChips.js';
import { useBulkAsk } from './bulk-ask.js';
import { errorMessage } from '../../../../shared/errors.js';

const KINDS: Array<{ value: InboxFilter['kind'] | ''; label: string }> = [
  { value: '', label: 'All kinds' },
  { value: 'autonomy', label: 'Autonomy' },
  { value: 'orchestration', label: 'Orchestration' },
  { value: 'attention', label: 'Needs attention' },
  { value: 'question', label: 'Questions' },
];

function Groups() {
  const { groupBy, summary, filter, setFilter } = useInbox();
  if (groupBy === 'none' || !summary) return null;
  const groups =
    groupBy === 'agent'
      ? summary.by_agent.map((g) => ({ key: g.key, label: g.key ?? 'standalone runs', count: g.count, f: { agent: g.key } }))
      : groupBy === 'run'
        ? summary.by_run.map((g) => ({ key: g.key, label: `${g.agent ?? 'standalone'} · ${shortId(g.key)}`, count: g.count, f: { run_id: g.key } }))
        : summary.by_chain.map((g) => ({ key: g.key, label: shortId(g.key), count: g.count, f: { chain_id: g.key } }));
  const active = (f: InboxFilter) => Object.entries(f).every(([k, v]) => (filter as Record<string, unknown>)[k] === v);
  return (
    <ul className="groups" aria-label={`Groups by ${groupBy}`}>
      {groups.length === 0 ? <li className="muted">No {groupBy === 'chain' ? 'chains' : 'groups'} among these cards.</li> : null}
      {groups.map((g) => (
        <li key={g.key ?? '∅'}>
          <button
            type="button"
            className={`group-chip ${active(g.f) ? 'on' : ''}`}
            aria-pressed={active(g.f)}
            onClick={() => {
              const base: InboxFilter = { ...filter };
              delete base.agent;
              delete base.run_id;
              delete base.chain_id;
              setFilter(active(g.f) ? base : { ...base, ...g.f });
            }}
          >
            {g.label} <span className="count">{g.count}</span>
          </button>
        </li>
      ))}
    </ul>
  );
}

export function InboxToolbar() {
  const { filter, setFilter, groupBy, setGroupBy, checked, items } = useInbox();
  const [text, setText] = useState(filter.text ?? '');
  // A text filter removed by its chip empties the box too.
  useEffect(() => setText(filter.text ?? ''), [filter.text]);
  const confirm = useBulkAsk((b) => b.asking);
  const setConfirm = useBulkAsk((b) => b.ask);
  useEffect(() => () => useBulkAsk.getState().ask(null), []);
  const [note, setNote] = useState<string | null>(null);
  const ids = Object.keys(checked);
  const named = confirm ? items.filter((i) => checked[i.id]) : [];

  const run = async (action: 'approve' | 'deny', reason: string) => {
    setConfirm(null);
    try {
      await useInbox.getState().bulk(action, reason);
      setNote(null);
    } catch (e) {
      setNote(errorMessage(e));
    }
  };

  return (
    <div className="inbox-toolbar">
      <form
        className="filter-row"
        role="search"
        aria-label="Filter cards"
        onSubmit={(e) => {
          e.preventDefault();
          setFilter({ ...filter, text: text.trim() || undefined });
        }}
      >
        <input
          className="input"
          type="search"
          aria-label="Filter by tool or target"
          placeholder="Filter: tool or target…"
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
        <select
          className="input"
          aria-label="Kind"
          value={filter.kind ?? ''}
          onChange={(e) => setFilter({ ...filter, kind: (e.target.value || undefined) as InboxFilter['kind'] })}
        >
          {KINDS.map((k) => (
            <option key={k.value ?? ''} value={k.value ?? ''}>
              {k.label}
            </option>
          ))}
        </select>
        <select className="input" aria-label="Group by" value={groupBy} onChange={(e) => setGroupBy(e.target.value as GroupBy)}>
          <option value="none">No grouping</option>
          <option value="agent">Group by agent</option>
          <option value="run">Group by run</option>
          <option value="chain">Group by chain</option>
        </select>
      </form>
      <FilterChips />
      <Groups />
      <div className="bulk-row">
        <button
          type="button"
          className="btn small ghost"
          onClick={() =>
            void useInbox
              .getState()
              .checkAllMatching()
              .catch((e) => setNote(errorMessage(e)))
          }
        >
          Select all matching
        </button>
        {ids.length ? (
          <>
            <span className="muted" data-testid="checked-count">
              {ids.length} selected
            </span>
            <button type="button" className="btn small primary" aria-keyshortcuts="a" onClick={() => setConfirm('approve')}>
              Approve {ids.length}
            </button>
            <button type="button" className="btn small danger-outline" aria-keyshortcuts="d" onClick={() => setConfirm('deny')}>
              Deny {ids.length}
            </button>
            <button type="button" className="btn small ghost" onClick={() => useInbox.getState().clearChecked()}>
              Clear
            </button>
          </>
        ) : null}
      </div>
      {note ? (
        <p className="banner error" role="alert">
          {note}
        </p>
      ) : null}
      {confirm ? (
        <BulkConfirm action={confirm} ids={ids} named={named} onConfirm={(reason) => void run(confirm, reason)} onCancel={() => setConfirm(null)} />
      ) : null}
    </div>
  );
}
