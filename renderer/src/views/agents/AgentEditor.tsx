// Edit one agent profile: model, mode, approval rules (validated live), a rule tester; save or remove.
import { useMemo, useState } from 'react';
import { useAgents, type Agent, type AgentInput } from '../../stores/agents.js';
import { CallError } from '../../api/client.js';
import { RulesEditor, type RulesCheckState } from './RulesEditor.js';
import { RuleTester } from './RuleTester.js';
import { KeyField } from './KeyField.js';
import { errorId, formErrors, saveFailure, type FormField } from './agent-form.js';
import { ConfirmDialog } from '../../components/ConfirmDialog.js';
import { containmentOf, NEXUS_SANDBOX } from '../../../../shared/containment.js';
import type { Mode } from '../../../../shared/types.js';
import { errorMessage } from '../../../../shared/errors.js';

const MODE_HELP: Record<Mode, string> = {
  ask: 'Every call the model makes parks for your approval unless an allow rule names it.',
  rules: 'The rules are the policy: allow grants, ask parks, and what no rule names is refused.',
  bypass: 'Every call is granted, except what a deny rule refuses.',
};

const blank = (seed: AgentInput['model'] | null): AgentInput => ({
  name: '',
  model: seed ?? { provider: 'chat-completions', baseURL: 'http://127.0.0.1:11434/v1', model: 'llama3.1' },
  mode: 'ask',
  approval_rules: [],
  instructions: '',
});

export function AgentEditor({ agent }: { agent: Agent | null }) {
  const { save, remove, edit, notice, seed } = useAgents();
  const initial = useMemo<AgentInput>(() => (agent ? { ...agent } : blank(seed)), [agent, seed]);
  const [draft, setDraft] = useState<AgentInput>(initial);
  const [rulesText, setRulesText] = useState(() => JSON.stringify(initial.approval_rules ?? [], null, 2));
  const [check, setCheck] = useState<RulesCheckState>({ valid: true, rules: initial.approval_rules ?? [], errors: [], warnings: [] });
  const [toolsText, setToolsText] = useState((initial.tools ?? []).join(', '));
  const [networkText, setNetworkText] = useState((initial.network?.allow ?? []).join(', '));
  const [saving, setSaving] = useState(false);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<FormField, string>>>({});
  const [confirmRemove, setConfirmRemove] = useState(false);
  const isNew = !agent;

  const setModel = (k: keyof AgentInput['model'], v: string) => setDraft((d) => ({ ...d, model: { ...d.model, [k]: v || undefined } as AgentInput['model'] }));

  /** A field with a problem says so (aria-invalid) and names the text that says which (aria-describedby). */
  const invalid = (field: FormField, describedBy?: string) =>
    fieldErrors[field]
      ? { 'aria-invalid': true, 'aria-describedby': [describedBy, errorId(field)].filter(Boolean).join(' ') }
      : describedBy
        ? { 'aria-describedby': describedBy }
        : {};
  // Inside the field's <label>, so hidden from the label's text (the field's name stays "Base URL"); the
  // input's aria-describedby still reads it, and the alert above says every problem at once.
  const problem = (field: FormField) =>
    fieldErrors[field] ? (
      <span id={errorId(field)} className="field-error small" aria-hidden="true">
        {fieldErrors[field]}
      </span>
    ) : null;

  const onSave = async () => {
    setMessage(null);
    setFieldErrors({});
    setSaving(true);
    try {
      const tools = toolsText
        .split(',')
        .map((t) => t.trim())
        .filter(Boolean);
      const hosts = networkText
        .split(',')
        .map((t) => t.trim())
        .filter(Boolean);
      // "New agent" creates (the kernel refuses a taken name); an opened agent is replaced (refused if removed).
      await save(
        {
          ...draft,
          approval_rules: check.rules,
          tools: tools.length ? tools : undefined,
          instructions: draft.instructions || undefined,
          network: hosts.length ? { allow: hosts } : undefined,
        },
        isNew ? 'create' : 'replace',
      );
    } catch (e) {
      const refused = e instanceof CallError ? e : null;
      const plain = saveFailure(refused?.code ?? null, draft.name.trim());
      const shown = plain === null ? formErrors(errorMessage(e), refused?.details) : { fields: {}, summary: plain };
      setFieldErrors(shown.fields);
      setMessage({ ok: false, text: shown.summary });
    } finally {
      setSaving(false);
    }
  };

  return (
    <form
      className="agent-editor"
      aria-label={isNew ? 'New agent' : `Agent ${agent.name}`}
      onSubmit={(e) => {
        e.preventDefault();
        void onSave();
      }}
    >
      <header className="page-head row">
        <h1>{isNew ? 'New agent' : agent.name}</h1>
        <div className="inline-form">
          {!isNew ? (
            <button type="button" className="btn danger-outline" onClick={() => setConfirmRemove(true)}>
              Remove
            </button>
          ) : null}
          {/* The greyed-out Save said nothing about why; the errors are far below, under Rules. */}
          {!check.valid ? (
            <span className="field-error" role="status">
              Fix the rule list below to save.
            </span>
          ) : !draft.name.trim() ? (
            <span className="muted" role="status">
              Name the agent to save it.
            </span>
          ) : null}
          <button type="submit" className="btn primary" disabled={saving || !check.valid || !draft.name}>
            {saving ? 'Saving…' : 'Save'}
          </button>
        </div>
      </header>
      {notice && !message ? (
        <div className="banner ok" role="status">
          {notice}
        </div>
      ) : null}
      {message ? (
        <div className={`banner ${message.ok ? 'ok' : 'error'}`} role={message.ok ? 'status' : 'alert'}>
          {message.text}
        </div>
      ) : null}

      <section className="panel form-grid">
        <label>
          Name
          <input
            className="input"
            value={draft.name}
            readOnly={!isNew}
            {...invalid('name', isNew ? undefined : 'name-fixed')}
            onChange={(e) => setDraft({ ...draft, name: e.target.value })}
            placeholder="e.g. builder"
          />
          {problem('name')}
          {isNew ? null : (
            <span id="name-fixed" className="muted small">
              A saved agent keeps its name (runs and rules refer to it).
            </span>
          )}
        </label>
        <label>
          Provider
          <select className="input" value={draft.model.provider} {...invalid('provider')} onChange={(e) => setModel('provider', e.target.value)}>
            <option value="chat-completions">Chat Completions (OpenAI, Ollama, …)</option>
            <option value="anthropic">Anthropic Messages</option>
          </select>
          {problem('provider')}
        </label>
        <label>
          Base URL
          <input className="input mono" value={draft.model.baseURL} {...invalid('baseURL')} onChange={(e) => setModel('baseURL', e.target.value)} />
          {problem('baseURL')}
        </label>
        <label>
          Model
          <input className="input mono" value={draft.model.model} {...invalid('model')} onChange={(e) => setModel('model', e.target.value)} />
          {problem('model')}
        </label>
        <label>
          API key variable
          <input
            className="input mono"
            value={draft.model.apiKeyEnv ?? ''}
            placeholder="e.g. OPENAI_API_KEY (optional)"
            {...invalid('apiKeyEnv')}
            onChange={(e) => setModel('apiKeyEnv', e.target.value)}
          />
          {problem('apiKeyEnv')}
        </label>
        <label>
          Workspace folder
          <input
            className="input mono"
            value={draft.workspace ?? ''}
            placeholder="default: a folder beside the data dir"
            {...invalid('workspace')}
            onChange={(e) => setDraft({ ...draft, workspace: e.target.value || undefined })}
          />
          {problem('workspace')}
        </label>
        <label>
          Network: hosts its commands may reach
          <input
            className="input mono"
            value={networkText}
            {...invalid('network')}
            onChange={(e) => setNetworkText(e.target.value)}
            placeholder="none (e.g. api.github.com, *.pypi.org)"
          />
          {problem('network')}
        </label>
        {agent?.external ? (
          <p className="wide" role="note">
            {containmentOf(agent)}
          </p>
        ) : (
          <label className="wide">
            <input type="checkbox" checked={draft.sandbox !== false} onChange={(e) => setDraft({ ...draft, sandbox: e.target.checked ? undefined : false })} />{' '}
            OS sandbox: its commands {NEXUS_SANDBOX} and cannot see NEXUS's data
            {draft.sandbox === false ? (
              <strong className="unsandboxed" role="note">
                {' '}
                Unsandboxed: this agent's commands can read and change everything you can.
              </strong>
            ) : null}
          </label>
        )}
        {!isNew ? (
          <div className="wide">
            <KeyField agent={agent.name} envVar={draft.model.apiKeyEnv} />
          </div>
        ) : null}
        <label className="wide">
          Instructions
          <textarea
            className="input"
            rows={3}
            value={draft.instructions ?? ''}
            {...invalid('instructions')}
            onChange={(e) => setDraft({ ...draft, instructions: e.target.value })}
          />
          {problem('instructions')}
        </label>
        <label className="wide">
          Tools (comma-separated; empty means the built-in set)
          <input
            className="input mono"
            value={toolsText}
            onChange={(e) => setToolsText(e.target.value)}
            placeholder="bash, read, write, edit, list, ask, delegate_task, message_agent"
            {...invalid('tools')}
          />
          {problem('tools')}
        </label>
      </section>

      <section className="panel">
        <h2>Approval</h2>
        <fieldset className="modes">
          <legend>Mode</legend>
          {(['ask', 'rules', 'bypass'] as Mode[]).map((m) => (
            <label key={m} className={`mode-option ${draft.mode === m ? 'checked' : ''}`}>
              <input type="radio" name="mode" value={m} checked={draft.mode === m} onChange={() => setDraft({ ...draft, mode: m })} />
              <span className="mode-name">{m}</span>
              <span className="mode-help">{MODE_HELP[m]}</span>
            </label>
          ))}
        </fieldset>
        <h3>Rules</h3>
        <p className="setting-desc">
          A JSON array; each rule has <code>tool</code> and <code>verdict</code> (allow | ask | deny), optionally <code>path</code>, <code>match</code>,{' '}
          <code>reason</code>, <code>origin</code>. Deny wins, then ask, then allow.
        </p>
        <RulesEditor text={rulesText} mode={draft.mode} onText={setRulesText} onCheck={setCheck} />
        {problem('rules')}
        <RuleTester mode={draft.mode} rules={check.rules} rulesValid={check.valid} agent={agent?.name ?? null} />
      </section>
      {confirmRemove && agent ? (
        <ConfirmDialog
          title={`Remove ${agent.name}?`}
          confirmLabel="Remove agent"
          danger
          onCancel={() => setConfirmRemove(false)}
          onConfirm={async () => {
            setConfirmRemove(false);
            try {
              await remove(agent.name);
              edit(null);
            } catch (e) {
              setMessage({ ok: false, text: errorMessage(e) });
            }
          }}
        >
          <p>Its credentials are fenced, its runs are force-stopped and their waiting calls are canceled.</p>
        </ConfirmDialog>
      ) : null}
    </form>
  );
}
