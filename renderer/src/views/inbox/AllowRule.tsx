// "Allow calls like this from now on": a rule built from the card, editable, tested at once against the
// pending cards loaded in the window, linted (a glob that lets a compound command through is named), and
// saved to the agent's profile. Rules are frozen on a run, so it applies from the agent's next run.
import { useMemo, useState } from 'react';
import { call, messageOf } from '../../api/client.js';
import { useInbox, type InboxItem } from '../../stores/inbox.js';
import { suggestRule, callsAllowedBy } from '../../../../shared/inbox/suggest.js';
import { lintRules } from '../../../../shared/rules/lint.js';
import type { ApprovalRule } from '../../../../shared/types.js';

const inputOf = (i: InboxItem) => (i.effect as { input?: unknown } | undefined)?.input;

export function AllowRule({ item, onClose }: { item: InboxItem; onClose(): void }) {
  const first = useMemo(() => suggestRule(item.tool, inputOf(item)), [item]);
  const [tool, setTool] = useState(first.tool);
  const [match, setMatch] = useState(first.match ?? '');
  const [note, setNote] = useState<{ ok: boolean; text: string } | null>(null);
  const [saving, setSaving] = useState(false);
  const items = useInbox((s) => s.items);
  const rule: ApprovalRule = { tool: tool.trim(), verdict: 'allow', ...(first.path ? { path: first.path, match } : {}) };
  const valid = rule.tool.length > 0;
  const sameAgent = items.filter((i) => i.agent === item.agent && (i.kind === 'autonomy' || i.kind === 'orchestration'));
  const covered = valid
    ? callsAllowedBy(
        rule,
        sameAgent.map((i) => ({ id: i.id, tool: i.tool, input: inputOf(i) })),
      )
    : [];
  const others = covered.filter((id) => id !== item.id);
  const coversThis = covered.includes(item.id);
  const warnings = valid ? lintRules([rule]) : [];

  const save = async () => {
    if (!item.agent) return;
    setSaving(true);
    try {
      const a = await call('agentsGet', { name: item.agent });
      const rules = Array.isArray(a.approval_rules) ? a.approval_rules : [];
      const { status, created_at, updated_at, ...profile } = a;
      // Replace, never create: an agent removed since the card appeared is not brought back by a rule.
      const r = await call('agentsReplace', { ...profile, approval_rules: [...rules, rule] });
      const n = r.warnings.length;
      setNote({
        ok: true,
        text: `Saved to ${item.agent}'s rules (rule ${rules.length}). It applies from ${item.agent}'s next run; this card still waits for your answer.${n ? ` ${n} warning${n > 1 ? 's' : ''}: see the agent's rules.` : ''}`,
      });
    } catch (e) {
      setNote({ ok: false, text: messageOf(e) });
    } finally {
      setSaving(false);
    }
  };

  return (
    <section className="allow-rule" aria-labelledby={`allow-${item.id}`}>
      <h3 id={`allow-${item.id}`}>Allow calls like this from now on</h3>
      {!item.agent ? (
        <p className="muted">A standalone run has no agent profile to keep a rule in.</p>
      ) : (
        <>
          <div className="allow-grid">
            <label>
              Tool
              <input className="input mono" value={tool} onChange={(e) => setTool(e.target.value)} />
            </label>
            {first.path ? (
              <label className="wide">
                {first.path === 'command' ? 'Command (glob: * is any text)' : `${first.path} (glob: * is any text)`}
                <input className="input mono" value={match} onChange={(e) => setMatch(e.target.value)} />
              </label>
            ) : null}
          </div>
          <pre className="code json rule-preview" aria-label="The rule">
            {JSON.stringify(rule)}
          </pre>
          <p role="status" className="rule-reach" data-testid="rule-reach">
            {!valid
              ? 'Type a tool name.'
              : `${coversThis ? 'Covers this call' : 'Does not cover this call'}; of ${item.agent}'s other ${sameAgent.length - 1} pending card${sameAgent.length === 2 ? '' : 's'} shown, it would also allow ${others.length}.`}
          </p>
          {others.length ? (
            <ul className="rule-covers" aria-label="Pending cards it would also allow">
              {others.slice(0, 5).map((id) => {
                const c = items.find((i) => i.id === id)!;
                return (
                  <li key={id}>
                    <code>{c.target}</code>
                  </li>
                );
              })}
              {others.length > 5 ? <li className="muted">and {others.length - 5} more</li> : null}
            </ul>
          ) : null}
          {warnings.map((w, i) => (
            <p key={i} className="warning" role="alert">
              <strong>Warning:</strong> {w.message.replace(/^rule 0: /, '')}
            </p>
          ))}
          <div className="row-actions">
            <button type="button" className="btn primary" disabled={!valid || saving} onClick={() => void save()}>
              {warnings.length ? 'Save rule anyway' : `Save to ${item.agent}'s rules`}
            </button>
            <button type="button" className="btn ghost" onClick={onClose}>
              Close
            </button>
          </div>
          {note ? (
            <p role={note.ok ? 'status' : 'alert'} className={note.ok ? 'note-ok' : 'banner error'}>
              {note.text}
            </p>
          ) : null}
        </>
      )}
    </section>
  );
}
