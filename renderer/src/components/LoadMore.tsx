// "Load more": a real button under a paged list, and a polite live region saying what the last load did.
// While a page loads the button stays focusable (aria-disabled, not disabled: a disabled button drops the
// keyboard focus to the page). When the last page arrives the button goes, and `onDone` may move the focus.
import { useRef } from 'react';

interface Props {
  /** What the button loads, e.g. "Load more runs". */
  label: string;
  hasMore: boolean;
  busy: boolean;
  /** The last load in words ("Loaded 100 more runs; 200 shown."), announced by the live region. */
  note: string;
  onMore(): Promise<unknown>;
  /** Called after a load that ended the list (the button is gone): put the focus somewhere useful. */
  onDone?(): void;
}

export function LoadMore({ label, hasMore, busy, note, onMore, onDone }: Props) {
  const ref = useRef<HTMLButtonElement>(null);
  return (
    <div className="load-more">
      {hasMore ? (
        <button
          ref={ref}
          type="button"
          className="btn small"
          aria-disabled={busy || undefined}
          onClick={async () => {
            if (busy) return;
            await onMore();
            // After React has rendered the page: a button that is gone means the list ended.
            setTimeout(() => {
              if (!ref.current) onDone?.();
            }, 0);
          }}
        >
          {busy ? 'Loading…' : label}
        </button>
      ) : null}
      <p role="status" aria-live="polite" className="sr-only">
        {note}
      </p>
    </div>
  );
}
