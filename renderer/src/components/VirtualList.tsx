// A windowed list with fixed row height: 1,000 pending cards paint as fast as 20 (DESIGN §6 budget). Each row
// says its place in the whole (aria-posinset/aria-setsize), so a screen reader counts all cards, not the few
// rows in the DOM; near the end of what is loaded, onNearEnd asks for the next page.
import { useEffect, useLayoutEffect, useRef, useState } from 'react';

interface Props<T> {
  items: T[];
  rowHeight: number;
  render(item: T, index: number): React.ReactNode;
  keyOf(item: T): string;
  /** Keep this index scrolled into view (keyboard navigation). */
  activeIndex?: number;
  label: string;
  overscan?: number;
  /** How many there are in all (more than `items` when the rest is not loaded yet). */
  total?: number;
  onNearEnd?(): void;
}

export function VirtualList<T>({ items, rowHeight, render, keyOf, activeIndex, label, overscan = 6, total, onNearEnd }: Props<T>) {
  const ref = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(800);

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    setHeight(el.clientHeight || 800);
    const ro = new ResizeObserver(() => setHeight(el.clientHeight || 800));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el || activeIndex === undefined || activeIndex < 0) return;
    const top = activeIndex * rowHeight;
    if (top < el.scrollTop) el.scrollTop = top;
    else if (top + rowHeight > el.scrollTop + el.clientHeight) el.scrollTop = top + rowHeight - el.clientHeight;
  }, [activeIndex, rowHeight]);

  const first = Math.max(0, Math.floor(scrollTop / rowHeight) - overscan);
  const last = Math.min(items.length, Math.ceil((scrollTop + height) / rowHeight) + overscan);
  const visible = items.slice(first, last);
  const nearEnd = last >= items.length - overscan;
  useEffect(() => {
    if (nearEnd && onNearEnd) onNearEnd();
  }, [nearEnd, items.length, onNearEnd]);
  const setSize = Math.max(total ?? items.length, items.length);
  return (
    <div ref={ref} className="vlist" role="list" aria-label={label} onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}>
      <div style={{ height: items.length * rowHeight, position: 'relative' }}>
        {visible.map((item, i) => (
          <div
            key={keyOf(item)}
            role="listitem"
            aria-posinset={first + i + 1}
            aria-setsize={setSize}
            className="vlist-row"
            style={{ position: 'absolute', top: (first + i) * rowHeight, height: rowHeight, left: 0, right: 0 }}
          >
            {render(item, first + i)}
          </div>
        ))}
      </div>
    </div>
  );
}
