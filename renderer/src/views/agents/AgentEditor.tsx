// Edit one agent profile: model, mode, approval rules (validated live), a rule tester; save or remove.
import { useMemo, useState } from 'react';
import { useAgents, type Agent, type AgentInput } from '../../stores/agents.js';
import { CallError } from '../../api/client.js';
import type { RulesCheckState } from './RulesEditor.js';
import { ApprovalSection } from './ApprovalSection.js';
import { RemoveAgentDialog } from './RemoveAgentDialog.js';
import { EditorHead } from './EditorHead.js';
import { KeyField } from './KeyField.js';
import { errorId, formErrors, saveFailure, type FormField } from './agent-form.js';
import { containmentOf, NEXUS_SANDBOX } from '../../../../shared/containment.js';
import { errorMessage } from '../../../../shared/errors.js';

const blank = (seed: AgentInput['model'] | null): AgentInput => ({
  name: '',
  model: seed ?? { provider: 'chat-completions', baseURL: 'http://127.0.0.1:11434/v1', model: 'llama3.1' },
  mode: 'ask',
  approval_rules: [],
  instructions: '',
});

export function AgentEditor({ agent }: { agent: Agent | null }) {
  const { save, notice, seed } = useAgents();
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
      <EditorHead
        title={isNew ? 'New agent' : agent.name}
        removable={!isNew}
        onRemove={() => setConfirmRemove(true)}
        rulesValid={check.valid}
        name={draft.name}
        saving={saving}
      />
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
            OS sandbox: the agent {NEXUS_SANDBOX} and cannot see NEXUS's data
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

      <ApprovalSection
        mode={draft.mode}
        onMode={(mode) => setDraft({ ...draft, mode })}
        rulesText={rulesText}
        onRulesText={setRulesText}
        check={check}
        onCheck={setCheck}
        rulesProblem={problem('rules')}
        agent={agent?.name ?? null}
      />
      {confirmRemove && agent ? (
        <RemoveAgentDialog name={agent.name} onCancel={() => setConfirmRemove(false)} onFailed={(text) => setMessage({ ok: false, text })} />
      ) : null}
    </form>
  );
}
