/// <reference types="vite/client" />
// The Help dialog: the docs/ page for the view on screen, bundled with the window (each page its own lazy
// chunk) so it reads the same in Electron and in the browser host, offline. Links to other pages open them
// here; web links open in the browser. Keyboard: focus moves in, Tab stays in, Escape closes.
import { useEffect, useRef, useState } from 'react';
import { parseMarkdown, type Block, type Inline } from './markdown.js';

// spec-coverage.md is for developers: not bundled.
const PAGES = import.meta.glob(['../../../docs/*.md', '!../../../docs/spec-coverage.md'], { query: '?raw', import: 'default' }) as Record<
  string,
  () => Promise<string>
>;
const loaderFor = (file: string) => PAGES[`../../../docs/${file}`];

interface Props {
  file: string;
  onClose(): void;
}

export function HelpDialog({ file: first, onClose }: Props) {
  const [file, setFile] = useState(first);
  const [blocks, setBlocks] = useState<Block[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const dialog = useRef<HTMLDivElement>(null);
  const close = useRef<HTMLButtonElement>(null);
  const anchor = useRef<string | null>(null);

  useEffect(() => {
    let live = true;
    setBlocks(null);
    setError(null);
    const load = loaderFor(file);
    if (!load) setError(`No help page ${file}.`);
    else
      load().then(
        (text) => live && setBlocks(parseMarkdown(text)),
        () => live && setError(`The help page ${file} could not be loaded.`),
      );
    return () => {
      live = false;
    };
  }, [file]);

  useEffect(() => {
    if (!blocks) return;
    const target = anchor.current ? dialog.current?.querySelector(`#help-${CSS.escape(anchor.current)}`) : null;
    anchor.current = null;
    if (target) target.scrollIntoView();
    else dialog.current?.querySelector('.help-body')?.scrollTo(0, 0);
  }, [blocks]);

  // Focus goes back where it was (the Help button) when the dialog closes.
  useEffect(() => {
    const opener = document.activeElement as HTMLElement | null;
    return () => opener?.focus();
  }, []);

  useEffect(() => {
    close.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onClose();
      if (e.key !== 'Tab' || !dialog.current) return;
      const focusable = [...dialog.current.querySelectorAll<HTMLElement>('button, a[href], [tabindex="0"]')];
      if (!focusable.length) return;
      const [head, tail] = [focusable[0], focusable[focusable.length - 1]];
      const wrapTo = e.shiftKey && document.activeElement === head ? tail : !e.shiftKey && document.activeElement === tail ? head : null;
      if (wrapTo) {
        e.preventDefault();
        wrapTo.focus();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);

  const open = (href: string) => {
    const [target, hash] = href.split('#');
    if (target && /^[\w.-]+\.md$/.test(target) && loaderFor(target)) {
      anchor.current = hash ?? null;
      setFile(target);
    } else if (!target && hash) {
      dialog.current?.querySelector(`#help-${CSS.escape(hash)}`)?.scrollIntoView();
    }
  };

  const renderInline = (parts: Inline[]) =>
    parts.map((p, i) => {
      if (p.kind === 'code') return <code key={i}>{p.text}</code>;
      if (p.kind === 'strong') return <strong key={i}>{p.text}</strong>;
      if (p.kind === 'em') return <em key={i}>{p.text}</em>;
      if (p.kind === 'link') {
        if (/^https:\/\//.test(p.href))
          return (
            <a key={i} href={p.href} target="_blank" rel="noreferrer noopener">
              {p.text}
            </a>
          );
        const [target] = p.href.split('#');
        if (target && !loaderFor(target)) return <span key={i}>{p.text}</span>; // a source file: not in the window
        return (
          <a
            key={i}
            href={`#help:${p.href}`}
            onClick={(e) => {
              e.preventDefault();
              open(p.href);
            }}
          >
            {p.text}
          </a>
        );
      }
      return <span key={i}>{p.text}</span>;
    });

  const title = blocks?.find((b) => b.kind === 'heading');
  return (
    <div className="overlay" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div className="dialog help-dialog" role="dialog" aria-modal="true" aria-labelledby="help-title" ref={dialog}>
        <div className="help-head">
          <h2 id="help-title">{title && title.kind === 'heading' ? renderInline(title.text) : 'Help'}</h2>
          <span className="help-file mono" title="This page is in the docs folder of NEXUS">
            docs/{file}
          </span>
          <button type="button" className="btn ghost" ref={close} onClick={onClose}>
            Close
          </button>
        </div>
        <div className="help-body" tabIndex={0} aria-label="Help page">
          {error ? <p role="alert">{error}</p> : null}
          {!blocks && !error ? <p role="status">Loading…</p> : null}
          {blocks?.slice(title ? 1 : 0).map((b, i) => {
            if (b.kind === 'heading') {
              const H = `h${Math.min(6, b.level + 1)}` as 'h3';
              return (
                <H key={i} id={`help-${b.id}`}>
                  {renderInline(b.text)}
                </H>
              );
            }
            if (b.kind === 'paragraph') return <p key={i}>{renderInline(b.text)}</p>;
            if (b.kind === 'code')
              return (
                <pre key={i}>
                  <code>{b.text}</code>
                </pre>
              );
            if (b.kind === 'list') {
              const L = b.ordered ? 'ol' : 'ul';
              return (
                <L key={i}>
                  {b.items.map((it, j) => (
                    <li key={j}>{renderInline(it)}</li>
                  ))}
                </L>
              );
            }
            return (
              <div className="help-table" key={i}>
                <table>
                  <thead>
                    <tr>
                      {b.head.map((c, j) => (
                        <th key={j} scope="col">
                          {renderInline(c)}
                        </th>
                      ))}
                    </tr>
                  </thead>
                  <tbody>
                    {b.rows.map((r, j) => (
                      <tr key={j}>
                        {r.map((c, k) => (
                          <td key={k}>{renderInline(c)}</td>
                        ))}
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}
