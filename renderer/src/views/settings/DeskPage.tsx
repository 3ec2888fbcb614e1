// Settings ▸ Team ▸ Desk: join a team desk (a PostgreSQL database several machines share), see this machine's
// connection to it, and leave it. The password goes to the secret store (the OS keychain in the desktop app)
// and never comes back to the window.
import { useEffect, useState } from 'react';
import { useDesk, type DeskStatus } from '../../stores/desk.js';
import { ago, useNow } from '../../components/time.js';
import { ConfirmDialog } from '../../components/ConfirmDialog.js';
import { CallError } from '../../api/client.js';
import { errorMessage } from '../../../../shared/errors.js';

interface Form {
  url: string;
  machine: string;
  person: string;
  password: string;
}
type FieldErrors = Partial<Record<keyof Form, string>>;

function fieldErrorsOf(e: unknown): FieldErrors {
  const out: FieldErrors = {};
  if (!(e instanceof CallError)) return out;
  for (const d of e.details ?? []) if (d.path === 'url' || d.path === 'machine' || d.path === 'person' || d.path === 'password') out[d.path] = d.message;
  return out;
}

function JoinForm() {
  const [form, setForm] = useState<Form>({ url: '', machine: '', person: '', password: '' });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [fields, setFields] = useState<FieldErrors>({});
  const join = async () => {
    setBusy(true);
    setError(null);
    setFields({});
    try {
      await useDesk.getState().join({
        url: form.url.trim(),
        machine: form.machine.trim(),
        person: form.person.trim() || null,
        ...(form.password ? { password: form.password } : {}),
      });
    } catch (e) {
      setFields(fieldErrorsOf(e));
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };
  const field = (k: keyof Form) => ({
    value: form[k],
    onChange: (e: { target: { value: string } }) => setForm({ ...form, [k]: e.target.value }),
    'aria-invalid': fields[k] ? true : undefined,
    'aria-describedby': fields[k] ? `desk-${k}-error` : `desk-${k}-hint`,
  });
  const hint = (k: keyof Form, text: string) =>
    fields[k] ? (
      <span id={`desk-${k}-error`} className="field-error">
        {fields[k]}
      </span>
    ) : (
      <span id={`desk-${k}-hint`} className="field-hint">
        {text}
      </span>
    );
  return (
    <section className="panel" aria-labelledby="desk-join-title">
      <h2 id="desk-join-title">Join a desk</h2>
      <form
        className="model-form"
        onSubmit={(e) => {
          e.preventDefault();
          void join();
        }}
      >
        <label>
          Desk URL
          <input className="input mono" required placeholder="postgres://laptop_3@db.example.com:5432/desk" autoComplete="off" {...field('url')} />
          {hint('url', 'postgres://ROLE@HOST:PORT/DATABASE (add ?sslmode=require on a network you do not trust)')}
        </label>
        <label>
          Machine name
          <input className="input mono" required placeholder="laptop-3" autoComplete="off" {...field('machine')} />
          {hint('machine', 'How this machine is named at the desk: letters, digits, dot, dash or underscore')}
        </label>
        <label>
          Person (Postgres role)
          <input className="input mono" placeholder="alice" autoComplete="off" {...field('person')} />
          {hint('person', 'Who answers desk cards from here; the machine’s role must be granted it')}
        </label>
        <label>
          Password (optional)
          <input className="input mono" type="password" autoComplete="new-password" {...field('password')} />
          {hint('password', 'Kept in the OS keychain (or, without one, a file only you may read), never in the database or a log; blank if PGPASSWORD has it')}
        </label>
        <div className="row-actions">
          <button type="submit" className="btn primary" disabled={busy || !form.url.trim() || !form.machine.trim()}>
            {busy ? 'Joining…' : 'Join the desk'}
          </button>
        </div>
      </form>
      {error ? (
        <p className="banner error" role="alert" data-testid="desk-error">
          {error}
        </p>
      ) : null}
    </section>
  );
}

function Connection({ s }: { s: DeskStatus }) {
  const now = useNow(1000);
  const [confirm, setConfirm] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const leave = async (force: boolean) => {
    setConfirm(false);
    setBusy(true);
    setError(null);
    try {
      await useDesk.getState().leave(force);
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };
  const heard = s.last_heard_at ? `${ago(s.last_heard_at, now)} (${new Date(s.last_heard_at).toLocaleTimeString()})` : 'not yet';
  return (
    <section className={`panel ${s.connected ? '' : 'bad'}`} aria-labelledby="desk-conn-title">
      <h2 id="desk-conn-title">This machine at the desk</h2>
      <dl className="facts" data-testid="desk-facts">
        <div>
          <dt>State</dt>
          <dd data-testid="desk-state">
            <span className={`dot ${s.connected ? 'ok' : 'bad'}`} aria-hidden="true" /> {s.connected ? 'Connected' : 'Not connected'}
          </dd>
        </div>
        <div>
          <dt>Machine</dt>
          <dd className="target">{s.machine}</dd>
        </div>
        <div>
          <dt>Person</dt>
          <dd className="target">{s.person ?? 'none (cards of other machines cannot be answered from here)'}</dd>
        </div>
        <div>
          <dt>Last heard</dt>
          <dd>{heard}</dd>
        </div>
        <div>
          <dt>Outbox</dt>
          <dd data-testid="desk-backlog">
            {s.outbox_pending} change{s.outbox_pending === 1 ? '' : 's'} waiting
          </dd>
        </div>
        <div>
          <dt>Silence stop</dt>
          <dd>{s.silence_stop ? `Engaged: governed hops stop until the desk is heard again` : `Off (engages after ${s.silence_stop_s} s without the desk)`}</dd>
        </div>
        <div>
          <dt>Desk</dt>
          <dd className="target">{s.url}</dd>
        </div>
        <div>
          <dt>Password</dt>
          <dd>{s.password_stored ? `Stored, ${s.password_store}` : 'None stored'}</dd>
        </div>
      </dl>
      {s.last_error ? (
        <p className="banner error" role="status">
          The desk cannot be reached: {s.last_error}. Changes wait in the outbox and are sent when it is back; this machine’s own cards are still answered here.
        </p>
      ) : null}
      {s.source === 'start' ? (
        <p className="setting-desc">
          This NEXUS was started with <code>--desk</code> (or <code>NEXUS_DESK_URL</code>): leaving holds until it is started again with them.
        </p>
      ) : null}
      <div className="inline-form">
        <button type="button" className="btn danger" disabled={busy} onClick={() => setConfirm(true)}>
          {busy ? 'Leaving…' : 'Leave the desk'}
        </button>
        {error ? (
          <button type="button" className="btn" disabled={busy} onClick={() => void leave(true)}>
            Leave anyway
          </button>
        ) : null}
      </div>
      {error ? (
        <p className="banner error" role="alert" data-testid="desk-error">
          {error}
        </p>
      ) : null}
      {confirm ? (
        <ConfirmDialog title="Leave the team desk?" confirmLabel="Leave the desk" danger onConfirm={() => void leave(false)} onCancel={() => setConfirm(false)}>
          <p>
            NEXUS sends what waits in the outbox, tells the desk {s.machine} has left, and forgets the desk and its password. This machine’s cards then stay
            here: no one at the desk sees or answers them.
          </p>
        </ConfirmDialog>
      ) : null}
    </section>
  );
}

export function DeskPage() {
  const status = useDesk((d) => d.status);
  useEffect(() => void useDesk.getState().refresh(), []);
  return (
    <div className="settings-page">
      <header className="page-head">
        <p className="crumbs">Settings ▸ Team ▸ Desk</p>
        <h1>Team desk</h1>
        <p className="lede">
          A team desk is one PostgreSQL database several machines join: every machine’s approval cards are in every joined machine’s Inbox, anyone allowed
          answers them, and the desk keeps one record of who allowed what. Each card still runs on the machine that made it. Setting a desk up (the database,
          its roles, <code>nexus desk init</code>) is in the desk guide, docs/desk.md.
        </p>
      </header>
      {/* One short sentence for a screen reader when the state changes; the facts above tick and are not announced. */}
      <p className="sr-only" role="status">
        {status === null ? '' : !status.joined ? 'This machine is not at a desk.' : status.connected ? 'Connected to the desk.' : 'Not connected to the desk.'}
      </p>
      {status === null ? <p className="muted">Reading the desk connection…</p> : status.joined ? <Connection s={status} /> : null}
      {status && !status.joined ? <JoinForm /> : null}
    </div>
  );
}
