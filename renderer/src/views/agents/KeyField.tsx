// A provider key for an agent, kept in the OS keychain by the desktop app. The key goes in and never comes
// back; the browser host has no keychain, so there it points to the environment variable instead.
import { useEffect, useState } from 'react';
import { call, CallError } from '../../api/client.js';
import { errorMessage } from '../../../../shared/errors.js';

export function KeyField({ agent, envVar }: { agent: string; envVar?: string }) {
  const [status, setStatus] = useState<{ stored: boolean; keychain: boolean; keychain_note?: string } | 'unavailable' | null>(null);
  const [key, setKey] = useState('');
  const [note, setNote] = useState<string | null>(null);
  useEffect(() => {
    call('keysStatus', { agent }).then(
      (s) => setStatus(s),
      (e) => setStatus(e instanceof CallError && e.code === 'not_implemented' ? 'unavailable' : (setNote(errorMessage(e)), null)),
    );
  }, [agent]);
  const save = async (value: string | null) => {
    try {
      setStatus(await call('keysSet', { agent, key: value }));
      setKey('');
      setNote(value ? 'Key stored in the OS keychain.' : 'Key forgotten.');
    } catch (e) {
      setNote(errorMessage(e));
    }
  };
  if (status === 'unavailable') {
    return (
      <p className="setting-desc">
        Provider key: this window runs in the browser host, which has no keychain. Start NEXUS with the key in{' '}
        {envVar ? <code>{envVar}</code> : 'the environment variable you name above'}.
      </p>
    );
  }
  return (
    <div className="inline-form key-field">
      <span className="setting-label">Provider key</span>
      <span className={`status-pill ${status && status.stored ? 'ok' : ''}`}>
        {status === null ? '…' : status.stored ? 'stored in keychain' : 'none stored'}
      </span>
      <input
        className="input mono grow"
        type="password"
        autoComplete="off"
        aria-label="Provider key"
        placeholder="Paste a key to store it in the OS keychain"
        value={key}
        onChange={(e) => setKey(e.target.value)}
      />
      <button type="button" className="btn" disabled={!key} onClick={() => void save(key)}>
        Store key
      </button>
      {status && status.stored ? (
        <button type="button" className="btn ghost" onClick={() => void save(null)}>
          Forget key
        </button>
      ) : null}
      {note ? (
        <span className="muted" role="status">
          {note}
        </span>
      ) : null}
      {status && !status.keychain && status.keychain_note ? <p className="setting-desc">{status.keychain_note}</p> : null}
    </div>
  );
}
