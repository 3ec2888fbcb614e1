// Every filter in force, each a chip that removes it: a filter is never in force without a way out, even
// after the group chip that set it left with its last card.
import { useInbox, type InboxFilter } from '../../stores/inbox.js';
import { shortId } from './cards.js';

const KIND_WORD: Record<NonNullable<InboxFilter['kind']>, string> = {
  autonomy: 'autonomy',
  orchestration: 'orchestration',
  attention: 'needs attention',
  question: 'questions',
};

/** The filters in force as words a person reads, one per key. */
export function filterParts(f: InboxFilter): Array<{ key: keyof InboxFilter; label: string }> {
  const parts: Array<{ key: keyof InboxFilter; label: string }> = [];
  if (f.agent !== undefined) parts.push({ key: 'agent', label: `agent: ${f.agent ?? 'standalone runs'}` });
  if (f.run_id !== undefined) parts.push({ key: 'run_id', label: `run: ${shortId(f.run_id)}` });
  if (f.chain_id !== undefined) parts.push({ key: 'chain_id', label: `chain: ${shortId(f.chain_id)}` });
  if (f.kind !== undefined) parts.push({ key: 'kind', label: `kind: ${KIND_WORD[f.kind]}` });
  if (f.text) parts.push({ key: 'text', label: `text: “${f.text}”` });
  return parts;
}

export function FilterChips() {
  const filter = useInbox((s) => s.filter);
  const note = useInbox((s) => s.filterNote);
  const parts = filterParts(filter);
  if (!parts.length && !note) return null;
  const without = (key: keyof InboxFilter) => {
    const next = { ...filter };
    delete next[key];
    useInbox.getState().setFilter(next);
  };
  return (
    <div className="filter-chips">
      {parts.length ? (
        <ul aria-label="Filters in force">
          {parts.map((p) => (
            <li key={p.key}>
              <span className="filter-chip">
                {p.label}
                <button type="button" className="chip-x" aria-label={`Remove filter ${p.label}`} onClick={() => without(p.key)}>
                  ×
                </button>
              </span>
            </li>
          ))}
          {parts.length > 1 ? (
            <li>
              <button type="button" className="btn small ghost" onClick={() => useInbox.getState().setFilter({})}>
                Clear all filters
              </button>
            </li>
          ) : null}
        </ul>
      ) : null}
      {note ? (
        <p className="muted filter-note" role="status">
          {note}
        </p>
      ) : null}
    </div>
  );
}
