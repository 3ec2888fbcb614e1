// Help, in the top bar: the welcome (and the offline demo) stays reachable after the first agent exists.
import { useEffect, useRef, useState } from 'react';
import { useNav } from '../stores/nav.js';

export function HelpMenu() {
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const close = (e: Event) => {
      if (e instanceof KeyboardEvent ? e.key === 'Escape' : !ref.current?.contains(e.target as Node)) setOpen(false);
    };
    window.addEventListener('keydown', close);
    window.addEventListener('mousedown', close);
    return () => {
      window.removeEventListener('keydown', close);
      window.removeEventListener('mousedown', close);
    };
  }, [open]);
  return (
    <div className="help-menu" ref={ref}>
      <button type="button" className="btn ghost small" aria-expanded={open} aria-controls="help-items" onClick={() => setOpen(!open)}>
        Help
      </button>
      {open ? (
        <ul id="help-items" className="help-items">
          <li>
            <button
              type="button"
              className="link"
              onClick={() => {
                setOpen(false);
                useNav.getState().showWelcome(true);
                requestAnimationFrame(() => document.getElementById('first-run-title')?.focus());
              }}
            >
              Welcome and the offline demo
            </button>
          </li>
        </ul>
      ) : null}
    </div>
  );
}
