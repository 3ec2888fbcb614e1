// Plain guidance to connect a real model: every agent profile names its model; keys stay out of the database.
import { inlineCode } from '../../components/inline-code.js';

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

export function ModelsPage() {
  return (
    <div className="settings-page">
      <header className="page-head">
        <p className="crumbs">Settings ▸ Agents ▸ Models</p>
        <h1>Connect a model</h1>
        <p className="lede">
          Each agent names its model in its profile (Agents ▸ New agent ▸ Model). NEXUS speaks the Chat Completions API (OpenAI, Ollama,
          LM Studio, vLLM, …) and the Anthropic Messages API. Keys come from an environment variable you name, or the OS keychain in the
          desktop app; they are never stored in the database in clear and never logged.
        </p>
      </header>
      {EXAMPLES.map((e) => (
        <section className="panel" key={e.name}>
          <h2>{e.name}</h2>
          <p className="setting-desc">
            {inlineCode(e.steps).map((seg, i) => (seg.code ? <code key={i}>{seg.text}</code> : <span key={i}>{seg.text}</span>))}
          </p>
          <pre className="code json">{JSON.stringify({ model: e.model }, null, 2)}</pre>
        </section>
      ))}
    </div>
  );
}
