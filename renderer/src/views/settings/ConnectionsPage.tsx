// Settings ▸ Agents ▸ Connections: Claude Code, Codex, Gemini CLI and OpenCode ask NEXUS before every tool call once connected. Each
// change is shown as a diff of the client's settings file first; nothing is written until the person confirms.
import { useCallback, useEffect, useState } from 'react';
import { call } from '../../api/client.js';
import type { OutputOf, Methods } from '../../../../shared/api/index.js';
import { errorMessage } from '../../../../shared/errors.js';

type Connection = OutputOf<Methods['connectionsList']>[number];
type Plan = OutputOf<Methods['connectionsPlan']>;

const LABEL: Record<Connection['client'], string> = { 'claude-code': 'Claude Code', codex: 'Codex', gemini: 'Gemini CLI', opencode: 'OpenCode' };

function PlanPreview({ plan, busy, onApply, onCancel }: { plan: Plan; busy: boolean; onApply(): void; onCancel(): void }) {
  return (
    <div className="panel-sub" role="region" aria-label={`Change to ${plan.file}`}>
      <p className="setting-desc">
        {plan.changed ? (
          <>
            NEXUS will change <code>{plan.file}</code> like this:
          </>
        ) : (
          <>
            <code>{plan.file}</code> needs no change.
          </>
        )}
      </p>
      {plan.changed ? (
        <pre className="code" tabIndex={0} aria-label="The change, as a unified diff">
          {plan.diff}
        </pre>
      ) : null}
      {plan.notes.length ? (
        <ul className="setting-desc">
          {plan.notes.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      ) : null}
      <div className="inline-form">
        <button type="button" className="btn primary" disabled={busy || !plan.changed} onClick={onApply}>
          {plan.action === 'connect' ? 'Connect' : 'Disconnect'} {LABEL[plan.client]}
        </button>
        <button type="button" className="btn" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </div>
  );
}

export function ConnectionsPage() {
  const [list, setList] = useState<Connection[] | null>(null);
  const [plan, setPlan] = useState<Plan | null>(null);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ text: string; error: boolean } | null>(null);

  const load = useCallback(() => {
    call('connectionsList', {}).then(setList, (e) => setMessage({ text: errorMessage(e), error: true }));
  }, []);
  useEffect(load, [load]);

  const preview = async (c: Connection, action: 'connect' | 'disconnect') => {
    setMessage(null);
    try {
      setPlan(await call('connectionsPlan', { client: c.client, scope: c.scope, action }));
    } catch (e) {
      setMessage({ text: errorMessage(e), error: true });
    }
  };
  const apply = async () => {
    if (!plan) return;
    setBusy(true);
    try {
      const done = await call('connectionsApply', { client: plan.client, scope: plan.scope, action: plan.action });
      setMessage({ text: `${plan.action === 'connect' ? 'Connected' : 'Disconnected'} ${LABEL[plan.client]} (${done.file}).`, error: false });
      setPlan(null);
      load();
    } catch (e) {
      setMessage({ text: errorMessage(e), error: true });
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="settings-page">
      <header className="page-head">
        <p className="crumbs">Settings ▸ Agents ▸ Connections</p>
        <h1>Connections</h1>
        <p className="lede">
          Connect Claude Code or Codex and they ask NEXUS before every tool call: the same rules, the same cards in the Inbox, Stop all and the record. Each
          project becomes an agent here (for example <code>claude-code-myproject</code>) whose mode and rules you set in Agents.
        </p>
      </header>
      <div role="status" aria-live="polite" className={message?.error ? 'conn-error' : 'setting-desc'}>
        {message?.text ?? ''}
      </div>
      {(list ?? []).map((c) => (
        <section className="panel" key={`${c.client}:${c.scope}`} aria-labelledby={`conn-${c.client}`}>
          <h2 id={`conn-${c.client}`}>{LABEL[c.client]}</h2>
          <div className="setting-row">
            <div className="setting-text">
              <div className="setting-desc">
                {c.here ? 'Connected: it asks this NEXUS before every tool call.' : c.connected ? `Connected elsewhere: ${c.note ?? ''}` : 'Not connected.'}{' '}
                Settings file: <code>{c.file}</code>
              </div>
            </div>
            <button type="button" className="btn" onClick={() => void preview(c, c.here ? 'disconnect' : 'connect')}>
              {c.here ? 'Disconnect…' : 'Connect…'}
            </button>
          </div>
          {plan && plan.client === c.client ? <PlanPreview plan={plan} busy={busy} onApply={() => void apply()} onCancel={() => setPlan(null)} /> : null}
        </section>
      ))}
    </div>
  );
}
