// Help, in the top bar: the docs/ page of the view on screen, and the welcome (with the offline demo), which
// stays reachable after the first agent exists.
import { useEffect, useRef, useState } from 'react';
import { useNav } from '../stores/nav.js';

export function HelpMenu({ page, onPage }: { page: { title: string }; onPage: () => void }) {
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
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
      <button ref={button} type="button" className="btn ghost small" aria-expanded={open} aria-controls="help-items" onClick={() => setOpen(!open)}>
        Help
      </button>
      {open ? (
        <ul id="help-items" className="help-items">
          <li>
            <button
              type="button"
              className="link"
              aria-haspopup="dialog"
              onClick={() => {
                // The page opens over the menu's button, so closing it brings focus back there.
                setOpen(false);
                button.current?.focus();
                onPage();
              }}
            >
              Help: {page.title}
            </button>
          </li>
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
