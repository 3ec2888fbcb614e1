// `?` in the Inbox: every key it answers to, in a modal dialog (focus inside, Escape or Close leaves, focus
// goes back where it was).
import { useEffect, useRef } from 'react';

export const SHORTCUTS: Array<{ keys: string[]; does: string }> = [
  { keys: ['j', '↓'], does: 'Next card' },
  { keys: ['k', '↑'], does: 'Previous card' },
  { keys: ['a'], does: 'Approve the card; with cards selected, approve the selection (asks to confirm)' },
  { keys: ['d'], does: 'Deny the card with the reason typed; with cards selected, deny the selection (asks to confirm)' },
  { keys: ['x'], does: 'Select or unselect the card for a bulk answer' },
  { keys: ['r'], does: 'Type a reason for denying' },
  { keys: ['Esc'], does: 'Leave the reason box (back to the card); close a dialog' },
  { keys: ['u'], does: 'Undo the answer still held (before it is sent)' },
  { keys: ['?'], does: 'This list' },
];

export function ShortcutsDialog({ onClose }: { onClose(): void }) {
  const closeRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const before = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    closeRef.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      // One focusable control: Tab stays on it; Escape closes.
      if (e.key === 'Escape' || e.key === 'Tab') {
        e.preventDefault();
        e.stopPropagation();
        if (e.key === 'Escape') onClose();
      }
    };
    window.addEventListener('keydown', onKey, true);
    return () => {
      window.removeEventListener('keydown', onKey, true);
      if (before && before.isConnected) before.focus();
    };
  }, [onClose]);
  return (
    <div className="overlay" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div className="dialog" role="dialog" aria-modal="true" aria-labelledby="shortcuts-title">
        <h2 id="shortcuts-title">Keyboard shortcuts</h2>
        <table className="shortcuts">
          <caption className="sr-only">Keys of the Inbox and what each does</caption>
          <thead>
            <tr>
              <th scope="col">Key</th>
              <th scope="col">Does</th>
            </tr>
          </thead>
          <tbody>
            {SHORTCUTS.map((s) => (
              <tr key={s.does}>
                <td>
                  {s.keys.map((k, i) => (
                    <span key={k}>
                      {i ? ' or ' : ''}
                      <kbd>{k}</kbd>
                    </span>
                  ))}
                </td>
                <td>{s.does}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <div className="dialog-actions">
          <button type="button" ref={closeRef} className="btn primary" onClick={onClose}>
            Close
          </button>
        </div>
      </div>
    </div>
  );
}
