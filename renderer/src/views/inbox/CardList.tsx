// The queue of cards, oldest first, windowed so thousands paint at once; each row has a checkbox for a bulk
// answer beside the button that opens it. More cards load as the list nears the end of what is loaded.
import { memo } from 'react';
import { useInbox, type InboxItem } from '../../stores/inbox.js';
import { useStatus } from '../../stores/status.js';
import { useDesk } from '../../stores/desk.js';
import { VirtualList } from '../../components/VirtualList.js';
import { KIND_LABEL } from './cards.js';
import { timeLeft } from '../../components/time.js';

export const ROW_HEIGHT = 84;

// Memoized: a card leaving the list re-renders only the rows whose card, selection or clock changed.
const Row = memo(function Row({ item, selected, now }: { item: InboxItem; selected: boolean; now: number }) {
  const select = useInbox((s) => s.select);
  const checked = useInbox((s) => Boolean(s.checked[item.id]));
  const left = timeLeft(item.expires_at, now);
  const answerable = item.kind === 'autonomy' || item.kind === 'orchestration';
  // At a desk, every card says where it runs: this machine's own are marked as here.
  const machine = useDesk((d) => (d.status?.joined ? d.status.machine : null));
  return (
    <div className={`card-row-wrap ${selected ? 'selected' : ''}`}>
      {answerable ? (
        <input
          type="checkbox"
          className="row-check"
          aria-label={`Select ${item.agent ?? 'standalone run'} ${item.tool} ${item.target}`.slice(0, 120)}
          checked={checked}
          onChange={(e) => useInbox.getState().check(item.id, e.target.checked)}
        />
      ) : (
        <span className="row-check" aria-hidden="true" />
      )}
      <button
        type="button"
        className={`card-row kind-${item.kind} ${selected ? 'selected' : ''}`}
        aria-current={selected || undefined}
        data-card-id={item.id}
        onClick={() => select(item.id)}
      >
        <span className="row-top">
          <span className={`kind-badge ${item.kind}`}>{KIND_LABEL[item.kind]}</span>
          {item.hop ? <span className="hop-chip">hop {item.hop}</span> : null}
          {machine ? (
            <span className="machine-chip here" title={`Runs here, on ${machine}`}>
              <span aria-hidden="true">here</span>
              <span className="sr-only">runs here, on {machine}</span>
            </span>
          ) : null}
          <span className="row-time">{left ?? ''}</span>
        </span>
        <span className="row-main">
          <strong>{item.agent ?? 'standalone run'}</strong> · <code>{item.tool}</code>
          {(item.effect as { sandboxed?: boolean } | undefined)?.sandboxed === false ? <strong className="unsandboxed"> · unsandboxed</strong> : null}
        </span>
        <span className="row-target">{item.target || '—'}</span>
      </button>
    </div>
  );
});

export function CardList({ items, selectedId, now }: { items: InboxItem[]; selectedId: string | null; now: number }) {
  const active = items.findIndex((i) => i.id === selectedId);
  const hasMore = useInbox((s) => s.hasMore);
  const filteredTotal = useInbox((s) => s.summary?.total);
  const filter = useInbox((s) => s.filter);
  const pending = useStatus((s) => s.pending);
  const isFiltered = Object.values(filter).some((v) => v !== undefined && v !== '');
  const total = isFiltered ? (filteredTotal ?? items.length) : Math.max(pending, items.length);
  return (
    <VirtualList
      label="Pending cards"
      items={items}
      rowHeight={ROW_HEIGHT}
      activeIndex={active}
      keyOf={(i) => i.id}
      total={hasMore ? total : items.length}
      onNearEnd={hasMore ? () => void useInbox.getState().loadMore() : undefined}
      render={(item) => <Row item={item} selected={item.id === selectedId} now={now} />}
    />
  );
}
