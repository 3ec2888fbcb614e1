// The queue of cards, newest last, windowed so a thousand of them paint at once.
import { useInbox, type InboxItem } from '../../stores/inbox.js';
import { VirtualList } from '../../components/VirtualList.js';
import { KIND_LABEL } from './cards.js';
import { timeLeft } from '../../components/time.js';

export const ROW_HEIGHT = 84;

function Row({ item, selected, now }: { item: InboxItem; selected: boolean; now: number }) {
  const select = useInbox((s) => s.select);
  const left = timeLeft(item.expires_at, now);
  return (
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
        <span className="row-time">{left ?? ''}</span>
      </span>
      <span className="row-main">
        <strong>{item.agent ?? 'standalone run'}</strong> · <code>{item.tool}</code>
        {(item.effect as { sandboxed?: boolean } | undefined)?.sandboxed === false ? <strong className="unsandboxed"> · unsandboxed</strong> : null}
      </span>
      <span className="row-target">{item.target || '—'}</span>
    </button>
  );
}

export function CardList({ items, selectedId, now }: { items: InboxItem[]; selectedId: string | null; now: number }) {
  const active = items.findIndex((i) => i.id === selectedId);
  return (
    <VirtualList
      label="Pending cards"
      items={items}
      rowHeight={ROW_HEIGHT}
      activeIndex={active}
      keyOf={(i) => i.id}
      render={(item) => <Row item={item} selected={item.id === selectedId} now={now} />}
    />
  );
}
