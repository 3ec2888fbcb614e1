// Settings ▸ Agents ▸ Orchestration: the two keys, the limits, the allowlist, per-hop approval, Stop all,
// and Recent chains. Every control writes through settingsSet; the kernel re-reads at each hop.
import { useEffect, useState } from 'react';
import { useOrchestration } from '../../stores/orchestration.js';
import { useAgents } from '../../stores/agents.js';
import { useStatus } from '../../stores/status.js';
import { Switch } from '../../components/Switch.js';
import { RecentChains } from './RecentChains.js';
import { StopAllControl } from './StopAllControl.js';
import { EntitlementKey } from './EntitlementKey.js';

function NumberSetting({ label, value, min, onSave, help }: { label: string; value: number; min: number; onSave(n: number): void; help: string }) {
  const [text, setText] = useState(String(value));
  useEffect(() => setText(String(value)), [value]);
  const n = Number(text);
  const valid = text.trim() !== '' && Number.isInteger(n) && n >= min && n <= 100;
  // ids hold no spaces (aria-describedby is a space-separated list of ids).
  const id = `num-${label.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
  const errId = `${id}-error`;
  return (
    <div className="setting-row">
      <div className="setting-text">
        <label className="setting-label" htmlFor={id}>
          {label}
        </label>
        <div className="setting-desc">{help}</div>
        {/* A red box alone says nothing: say what is wanted, and that the saved value still holds. */}
        {valid ? null : (
          <div className="field-error" id={errId} role="alert">
            Enter a whole number from {min} to 100. Not saved: the limit stays {value}.
          </div>
        )}
      </div>
      <input
        id={id}
        className={`input num ${valid ? '' : 'invalid'}`}
        type="number"
        min={min}
        max={100}
        value={text}
        aria-invalid={!valid}
        aria-describedby={valid ? undefined : errId}
        onChange={(e) => setText(e.target.value)}
        onBlur={() => valid && n !== value && onSave(n)}
        onKeyDown={(e) => e.key === 'Enter' && valid && n !== value && onSave(n)}
      />
    </div>
  );
}

function Allowlist({ value, onSave }: { value: string[]; onSave(v: string[]): void }) {
  const agents = useAgents((s) => s.agents);
  const [pick, setPick] = useState('');
  const candidates = agents.map((a) => a.name).filter((n) => !value.includes(n));
  // A typo here would silently allow nobody: names that match no agent are flagged (still kept: an agent
  // with that name may be added later, and the kernel checks names when a hop happens).
  const known = new Set(agents.filter((a) => a.status !== 'removed').map((a) => a.name));
  const typed = pick.trim();
  return (
    <div className="setting-row column">
      <div className="setting-text">
        <span className="setting-label" id="allowlist-label">
          Orchestrators allowlist
        </span>
        <div className="setting-desc">Only these agents may hand work down a chain. It starts empty: nothing orchestrates until you add an agent here.</div>
      </div>
      <ul className="chips" aria-labelledby="allowlist-label">
        {value.length === 0 ? <li className="muted">Empty: no agent may orchestrate.</li> : null}
        {value.map((name) => (
          <li key={name} className={`chip ${known.has(name) ? '' : 'unknown'}`} title={known.has(name) ? undefined : `No agent is named ${name}`}>
            {name}
            {known.has(name) ? null : <span className="chip-warn"> (no such agent)</span>}
            <button type="button" aria-label={`Remove ${name} from the allowlist`} onClick={() => onSave(value.filter((v) => v !== name))}>
              ×
            </button>
          </li>
        ))}
      </ul>
      <div className="inline-form">
        <input
          className="input allowlist-input"
          list="allowlist-agents"
          aria-label="Agent to allow as an orchestrator"
          placeholder={candidates.length ? 'Agent name' : 'Agent name (add agents first)'}
          value={pick}
          onChange={(e) => setPick(e.target.value)}
        />
        <datalist id="allowlist-agents">
          {candidates.map((n) => (
            <option key={n} value={n} />
          ))}
        </datalist>
        <button
          type="button"
          className="btn"
          disabled={!typed || value.includes(typed)}
          onClick={() => {
            onSave([...value, pick.trim()]);
            setPick('');
          }}
        >
          Add
        </button>
      </div>
      {typed && !known.has(typed) ? (
        <div className="field-warn" role="status">
          No agent is named {typed}
          {candidates.length ? `; known: ${candidates.slice(0, 5).join(', ')}${candidates.length > 5 ? ', …' : ''}` : ''}. It can be added anyway, and takes
          effect once an agent with that name exists.
        </div>
      ) : null}
    </div>
  );
}

export function OrchestrationPage() {
  const { settings, entitlement, error, saving, set } = useOrchestration();
  const stopAll = useStatus((s) => s.stopAll);
  if (!settings) return <div className="loading">{error ?? 'Loading settings…'}</div>;
  const enabled = settings['orchestration.enabled'];
  const entitled = entitlement?.entitled ?? false;
  const open = enabled && entitled && !stopAll;
  return (
    <div className="settings-page">
      <header className="page-head">
        <p className="crumbs">Settings ▸ Agents ▸ Orchestration</p>
        <h1>Orchestration</h1>
        <p className="lede">
          Chains of agents acting through each other cross the orchestration gate. Forming a chain needs two independent keys, both off by default: the{' '}
          <strong>entitlement</strong> from your account and the local <strong>Cross-Agent Orchestration</strong> switch.
        </p>
      </header>
      {error ? (
        <div className="banner error" role="alert">
          {error}
        </div>
      ) : null}
      <div className={`gate-state ${open ? 'open' : stopAll ? 'stopped' : 'closed'}`} role="status">
        {open
          ? 'Chains may form: governed hops are checked against the limits below' +
            (settings['orchestration.perHopApproval'] ? ' and held for your approval.' : '.')
          : stopAll
            ? 'Stop all is engaged: every governed hop is denied (orchestration_stopped) until you press Resume.'
            : !entitled
              ? 'Chains cannot form: the nexus.orchestration entitlement is absent (orchestration_not_entitled).'
              : 'Chains cannot form: Cross-Agent Orchestration is off (orchestration_disabled). Switch it on below.'}
      </div>

      <section className="panel">
        <h2>The two keys</h2>
        <EntitlementKey entitlement={entitlement} />
        <Switch
          label="Cross-Agent Orchestration"
          checked={enabled}
          busy={saving['orchestration.enabled']}
          onChange={(v) => void set('orchestration.enabled', v)}
          description="The local key. Turning it off takes effect on the very next hop: the kernel re-reads it every time, never a cached copy."
        />
      </section>

      <section className="panel">
        <h2>Limits</h2>
        <NumberSetting
          label="Maximum chain depth"
          min={1}
          value={settings['orchestration.maxDepth']}
          onSave={(n) => void set('orchestration.maxDepth', n)}
          help="The agent that began the chain is at depth 1; each hand-off adds one."
        />
        <NumberSetting
          label="Maximum agents per chain"
          min={1}
          value={settings['orchestration.maxAgents']}
          onSave={(n) => void set('orchestration.maxAgents', n)}
          help="Distinct agents a chain may touch, recipients included."
        />
        <Allowlist value={settings['orchestration.allowlist']} onSave={(v) => void set('orchestration.allowlist', v)} />
      </section>

      <section className="panel">
        <h2>Approval</h2>
        <Switch
          label="Per-hop approval"
          checked={settings['orchestration.perHopApproval']}
          busy={saving['orchestration.perHopApproval']}
          onChange={(v) => void set('orchestration.perHopApproval', v)}
          description="Hold every governed hop for your answer in the Inbox. Turning it off lets a chain run unattended; the limits, the allowlist and Stop all still apply."
        />
      </section>

      <StopAllControl />
      <RecentChains />
    </div>
  );
}
