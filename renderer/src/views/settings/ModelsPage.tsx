// Connect a model: a form (provider, base URL, model, key) with a Test connection button that makes a real
// request and says what came back, or why nothing did. The examples fill the form instead of showing JSON.
import { useState } from 'react';
import { inlineCode } from '../../components/inline-code.js';
import { call } from '../../api/client.js';
import { errorMessage } from '../../../../shared/errors.js';
import { useAgents } from '../../stores/agents.js';
import { useNav } from '../../stores/nav.js';

type Provider = 'chat-completions' | 'anthropic';
interface Form {
  provider: Provider;
  baseURL: string;
  model: string;
  key: string;
  apiKeyEnv: string;
}

const EXAMPLES = [
  {
    name: 'Ollama (local, free)',
    steps: 'Install Ollama, then `ollama pull llama3.1`. It serves the Chat Completions API on your machine.',
    model: { provider: 'chat-completions', baseURL: 'http://127.0.0.1:11434/v1', model: 'llama3.1' },
  },
  {
    name: 'OpenAI',
    steps: 'Create an API key at platform.openai.com and export it before starting NEXUS: `export OPENAI_API_KEY=…`.',
    model: { provider: 'chat-completions', baseURL: 'https://api.openai.com/v1', model: 'gpt-4.1', apiKeyEnv: 'OPENAI_API_KEY' },
  },
  {
    name: 'Anthropic',
    steps: 'Create an API key at console.anthropic.com and export it: `export ANTHROPIC_API_KEY=…`.',
    model: { provider: 'anthropic', baseURL: 'https://api.anthropic.com', model: 'claude-sonnet-4-5', apiKeyEnv: 'ANTHROPIC_API_KEY' },
  },
];

function ModelForm({ form, setForm }: { form: Form; setForm(f: Form): void }) {
  // `tested`: the settings the last successful test used (a later edit of the form does not carry them over).
  const [result, setResult] = useState<{ ok: boolean; text: string; tested?: Form } | null>(null);
  const [testing, setTesting] = useState(false);
  const test = async () => {
    setTesting(true);
    setResult(null);
    try {
      const r = await call('modelsTest', {
        provider: form.provider,
        baseURL: form.baseURL.trim(),
        model: form.model.trim(),
        ...(form.key.trim() ? { key: form.key.trim() } : {}),
        ...(form.apiKeyEnv.trim() ? { apiKeyEnv: form.apiKeyEnv.trim() } : {}),
      });
      setResult(
        r.ok
          ? { ok: true, text: `Connected in ${Math.round(r.ms)} ms. The model answered: “${r.reply || '(an empty reply)'}”`, tested: form }
          : { ok: false, text: `Not connected (${r.error?.code}): ${r.error?.message}` },
      );
    } catch (e) {
      setResult({ ok: false, text: errorMessage(e) });
    } finally {
      setTesting(false);
    }
  };
  const field = (k: keyof Form) => ({ value: form[k], onChange: (e: { target: { value: string } }) => setForm({ ...form, [k]: e.target.value }) });
  return (
    <section className="panel" aria-labelledby="model-form-title">
      <h2 id="model-form-title">Test a model connection</h2>
      <form
        className="model-form"
        onSubmit={(e) => {
          e.preventDefault();
          void test();
        }}
      >
        <label>
          Provider
          <select className="input" {...field('provider')}>
            <option value="chat-completions">Chat Completions (OpenAI, Ollama, LM Studio, vLLM…)</option>
            <option value="anthropic">Anthropic Messages</option>
          </select>
        </label>
        <label>
          Base URL
          <input className="input mono" required type="url" placeholder="http://127.0.0.1:11434/v1" {...field('baseURL')} />
        </label>
        <label>
          Model
          <input className="input mono" required placeholder="llama3.1" {...field('model')} />
        </label>
        <label>
          API key (used for this test only, never stored)
          <input className="input mono" type="password" autoComplete="off" {...field('key')} />
        </label>
        <label>
          Or the environment variable that holds it
          <input className="input mono" placeholder="OPENAI_API_KEY" {...field('apiKeyEnv')} />
        </label>
        <div className="row-actions">
          <button type="submit" className="btn primary" disabled={testing || !form.baseURL.trim() || !form.model.trim()}>
            {testing ? 'Testing…' : 'Test connection'}
          </button>
        </div>
      </form>
      <div role="status" aria-live="polite" data-testid="model-test-result">
        {result ? <p className={result.ok ? 'banner ok' : 'banner error'}>{result.text}</p> : null}
      </div>
      {result?.tested ? <MakeAgent tested={result.tested} /> : null}
      <p className="setting-desc">
        An agent uses these settings when its profile names them (Agents ▸ New agent ▸ Model); its key comes from the environment variable, or the OS keychain
        in the desktop app.
      </p>
    </section>
  );
}

/** After a good test: a new agent with exactly the tested model, open in the editor to be named and saved. */
function MakeAgent({ tested }: { tested: Form }) {
  const typedKey = Boolean(tested.key.trim()) && !tested.apiKeyEnv.trim();
  const make = () => {
    const apiKeyEnv = tested.apiKeyEnv.trim();
    const model = { provider: tested.provider, baseURL: tested.baseURL.trim(), model: tested.model.trim(), ...(apiKeyEnv ? { apiKeyEnv } : {}) };
    const key = typedKey ? ' The key you typed was for the test only: give the agent its key below.' : '';
    useAgents
      .getState()
      .newWithModel(model, `The model ${model.model} at ${model.baseURL} is filled in from Settings ▸ Models. Name the agent and save it.${key}`);
    useNav.getState().go('agents');
  };
  return (
    <div className="row-actions">
      <button type="button" className="btn" onClick={make}>
        Make an agent with this model…
      </button>
      <span className="muted small">
        Opens a new agent with {tested.model.trim()} filled in{typedKey ? '; the key you typed is not carried over' : ''}.
      </span>
    </div>
  );
}

export function ModelsPage() {
  const [form, setForm] = useState<Form>({ provider: 'chat-completions', baseURL: '', model: '', key: '', apiKeyEnv: '' });
  return (
    <div className="settings-page">
      <header className="page-head">
        <p className="crumbs">Settings ▸ Agents ▸ Models</p>
        <h1>Connect a model</h1>
        <p className="lede">
          Each agent names its model in its profile (Agents ▸ New agent ▸ Model). NEXUS speaks the Chat Completions API (OpenAI, Ollama, LM Studio, vLLM, …) and
          the Anthropic Messages API. Keys come from an environment variable you name, or the OS keychain in the desktop app; they are never stored in the
          database in clear and never logged.
        </p>
      </header>
      <ModelForm form={form} setForm={setForm} />
      {EXAMPLES.map((e) => (
        <section className="panel" key={e.name}>
          <h2>{e.name}</h2>
          <p className="setting-desc">{inlineCode(e.steps).map((seg, i) => (seg.code ? <code key={i}>{seg.text}</code> : <span key={i}>{seg.text}</span>))}</p>
          <button
            type="button"
            className="btn small"
            onClick={() => {
              setForm({ provider: e.model.provider as Provider, baseURL: e.model.baseURL, model: e.model.model, key: '', apiKeyEnv: e.model.apiKeyEnv ?? '' });
              document.getElementById('model-form-title')?.scrollIntoView({ block: 'start' });
            }}
          >
            Fill in {e.name.split(' ')[0]}
          </button>
        </section>
      ))}
    </div>
  );
}
