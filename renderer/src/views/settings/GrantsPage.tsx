// Settings ▸ Agents ▸ Grants: every standing grant in one place, each with what it lets through, when it ends and
// one button that takes it back. Session trust (in the kernel, until NEXUS quits), the allow rules in agent
// profiles (where "Allow calls like this" saves), and agents whose mode grants every call.
import { useEffect, useState } from 'react';
import { call } from '../../api/client.js';
import { useGrants } from '../../stores/grants.js';
import { useAgents, type Agent } from '../../stores/agents.js';
import { useNav } from '../../stores/nav.js';
import { localTime } from './entitlement-text.js';
import { errorMessage } from '../../../../shared/errors.js';
import { profileOfView } from '../../../../shared/agent-view.js';
import type { ApprovalRule } from '../../../../shared/types.js';

const ruleText = (r: ApprovalRule) => `${r.tool}${r.path ? ` where ${r.path} matches ${JSON.stringify(r.match ?? '*')}` : ''}`;

/** Remove one rule from an agent's saved profile, by its index, re-read first so no other edit is lost. */
async function removeRule(agent: string, index: number, rule: ApprovalRule): Promise<void> {
  const a = await call('agentsGet', { name: agent });
  const rules = Array.isArray(a.approval_rules) ? a.approval_rules : [];
  if (JSON.stringify(rules[index]) !== JSON.stringify(rule)) throw new Error(`${agent}'s rules changed meanwhile; look again.`);
  await call('agentsReplace', { ...profileOfView(a), approval_rules: rules.filter((_, i) => i !== index) });
}

export function GrantsPage() {
  const { trust, loaded, error, refresh } = useGrants();
  const agents = useAgents((s) => s.agents);
  const refreshAgents = useAgents((s) => s.refresh);
  const edit = useAgents((s) => s.edit);
  const go = useNav((s) => s.go);
  const [note, setNote] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => void refresh(), [refresh]);

  const act = async (what: () => Promise<string>) => {
    setBusy(true);
    try {
      setNote({ ok: true, text: await what() });
    } catch (e) {
      setNote({ ok: false, text: errorMessage(e) });
    } finally {
      setBusy(false);
      void refresh();
      void refreshAgents();
    }
  };
  const rules = agents.flatMap((a: Agent) =>
    (a.approval_rules ?? []).flatMap((r, index) => (r.verdict === 'allow' ? [{ agent: a.name, index, rule: r }] : [])),
  );
  const bypass = agents.filter((a) => a.mode === 'bypass');
  const total = trust.length + rules.length + bypass.length;

  return (
    <div className="settings-page">
      <header className="page-head">
        <p className="crumbs">Settings ▸ Agents ▸ Grants</p>
        <h1>Standing grants</h1>
        <p className="setting-desc">
          What lets an agent&apos;s calls run without asking you: trust given on a card, allow rules in an agent&apos;s profile, and bypass mode. Deny rules
          still bind, and orchestration holds always ask. Taking a grant back makes the calls it covered ask you again.
        </p>
      </header>
      <p role="status" className={note?.ok === false ? 'banner error' : 'note-ok'} data-testid="grants-note">
        {note?.text ?? (loaded ? `${total} standing grant${total === 1 ? '' : 's'}.` : 'Reading the grants…')}
      </p>
      {error ? <p className="banner error">{error}</p> : null}

      <section className="panel" aria-labelledby="trust-grants">
        <h2 id="trust-grants">Trust for this session</h2>
        {trust.length ? (
          <ul className="grant-list" aria-label="Session trust grants">
            {trust.map((g) => (
              <li key={g.id} className="grant">
                <span className="grant-agent">{g.agent}</span>
                <span className="grant-scope">{g.scope.kind === 'agent' ? 'Every call that would ask you' : <code>{g.covers}</code>}</span>
                <span className="grant-end muted small">
                  Since {localTime(g.granted_at)}; ends {g.ends}
                </span>
                <button
                  type="button"
                  className="btn danger-outline"
                  disabled={busy}
                  aria-label={`Take back ${g.agent}'s trust: ${g.scope.kind === 'agent' ? 'every call' : g.covers}`}
                  onClick={() =>
                    void act(async () => {
                      await call('trustRevoke', { id: g.id });
                      return `Taken back: ${g.agent}'s ${g.scope.kind === 'agent' ? 'calls' : 'calls like that one'} ask you again.`;
                    })
                  }
                >
                  Take back
                </button>
              </li>
            ))}
          </ul>
        ) : (
          <p className="muted">Nothing is trusted for this session. A card&apos;s “Trust” buttons add grants here.</p>
        )}
      </section>

      <section className="panel" aria-labelledby="rule-grants">
        <h2 id="rule-grants">Allow rules in agent profiles</h2>
        {rules.length ? (
          <ul className="grant-list" aria-label="Allow rules">
            {rules.map(({ agent, index, rule }) => (
              <li key={`${agent}-${index}`} className="grant">
                <span className="grant-agent">{agent}</span>
                <span className="grant-scope">
                  <code>{ruleText(rule)}</code>
                </span>
                <span className="grant-end muted small">Until removed; a run already started keeps its rules</span>
                <button
                  type="button"
                  className="btn danger-outline"
                  disabled={busy}
                  aria-label={`Remove ${agent}'s rule ${index}: allow ${ruleText(rule)}`}
                  onClick={() =>
                    void act(async () => {
                      await removeRule(agent, index, rule);
                      return `Removed ${agent}'s rule allowing ${ruleText(rule)}: it decides nothing from ${agent}'s next run.`;
                    })
                  }
                >
                  Remove
                </button>
              </li>
            ))}
          </ul>
        ) : (
          <p className="muted">No agent has an allow rule. “Allow calls like this…” on a card saves one.</p>
        )}
      </section>

      {bypass.length ? (
        <section className="panel" aria-labelledby="mode-grants">
          <h2 id="mode-grants">Agents in bypass mode</h2>
          <ul className="grant-list" aria-label="Agents in bypass mode">
            {bypass.map((a) => (
              <li key={a.name} className="grant">
                <span className="grant-agent">{a.name}</span>
                <span className="grant-scope">Every call not denied by a rule</span>
                <span className="grant-end muted small">Until its mode changes</span>
                <button
                  type="button"
                  className="btn"
                  onClick={() => {
                    edit(a.name);
                    go('agents');
                  }}
                >
                  Edit {a.name}
                </button>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}
