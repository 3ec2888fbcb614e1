// "Allow calls like this from now on": rules built from the card (an allow, and for a shell glob the
// compound-command guards that keep `cmd && rm -rf ~` asking), editable, tested live against the agent's
// pending cards with the profile's own rules and mode, linted, saved to the profile, and the card answered.
// Rules are frozen on a run, so the saved rules decide from the agent's next run.
import { useEffect, useMemo, useState } from 'react';
import { call } from '../../api/client.js';
import { useInbox, type InboxItem } from '../../stores/inbox.js';
import { suggestRule, rulesToAdd, outcomesUnder, type CardOutcome } from '../../../../shared/rules/suggest.js';
import { lintRules } from '../../../../shared/rules/lint.js';
import type { ApprovalRule, Mode } from '../../../../shared/types.js';
import { errorMessage } from '../../../../shared/errors.js';
import { profileOfView } from '../../../../shared/agent-view.js';

const inputOf = (i: InboxItem) => (i.effect as { input?: unknown } | undefined)?.input;
const WORD: Record<CardOutcome, string> = { allowed: 'allowed', asks: 'still asks you', denied: 'denied by a rule', refused: 'refused (no rule allows it)' };
const show = (r: ApprovalRule) => JSON.stringify(r);

interface Props {
  item: InboxItem;
  onClose(): void;
  /** Answer the card through the view (a flagged call asks for a second confirm). */
  onApprove(item: InboxItem): void;
}

export function AllowRule({ item, onClose, onApprove }: Props) {
  const first = useMemo(() => suggestRule(item.tool, inputOf(item)), [item]);
  const [tool, setTool] = useState(first.tool);
  const [match, setMatch] = useState(first.match ?? '');
  const [profile, setProfile] = useState<{ rules: ApprovalRule[]; mode: Mode } | null>(null);
  const [note, setNote] = useState<{ ok: boolean; text: string } | null>(null);
  const [saving, setSaving] = useState(false);
  const items = useInbox((s) => s.items);
  useEffect(() => {
    if (!item.agent) return;
    call('agentsGet', { name: item.agent })
      .then((a) => setProfile({ rules: Array.isArray(a.approval_rules) ? a.approval_rules : [], mode: a.mode }))
      .catch((e) => setNote({ ok: false, text: errorMessage(e) }));
  }, [item.agent]);

  const rule: ApprovalRule = { tool: tool.trim(), verdict: 'allow', ...(first.path ? { path: first.path, match } : {}) };
  const valid = rule.tool.length > 0;
  const existing = profile?.rules ?? [];
  const adding = valid ? rulesToAdd(rule, existing) : [];
  const all = [...existing, ...adding];
  const sameAgent = items.filter((i) => i.agent === item.agent && (i.kind === 'autonomy' || i.kind === 'orchestration'));
  const outcomes = profile
    ? outcomesUnder(
        all,
        profile.mode,
        sameAgent.map((i) => ({ id: i.id, tool: i.tool, input: inputOf(i) })),
      )
    : new Map<string, CardOutcome>();
  const tally = { allowed: 0, asks: 0, denied: 0, refused: 0 };
  for (const [id, o] of outcomes) if (id !== item.id) tally[o]++;
  const mine = outcomes.get(item.id);
  const warnings = valid ? lintRules(all).filter((w) => w.index >= existing.length) : [];

  const save = async () => {
    if (!item.agent) return;
    setSaving(true);
    try {
      const a = await call('agentsGet', { name: item.agent });
      const rules = Array.isArray(a.approval_rules) ? a.approval_rules : [];
      const rest = profileOfView(a);
      const add = rulesToAdd(rule, rules);
      // Replace, never create: an agent removed since the card appeared is not brought back by a rule.
      await call('agentsReplace', { ...rest, approval_rules: [...rules, ...add] });
      setNote({
        ok: true,
        text: `Saved to ${item.agent}'s rules (${add.length === 1 ? 'rule' : 'rules'} ${rules.length}${add.length > 1 ? `–${rules.length + add.length - 1}` : ''}). They decide from ${item.agent}'s next run.`,
      });
      onApprove(item);
    } catch (e) {
      setNote({ ok: false, text: errorMessage(e) });
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
          <ul className="rule-preview" aria-label="The rules to add">
            {adding.map((r) => (
              <li key={show(r)}>
                <span className={`verdict ${r.verdict}`}>{r.verdict}</span> <code>{show(r)}</code>
              </li>
            ))}
          </ul>
          {adding.length > 1 ? (
            <p className="muted small" data-testid="guards-note">
              The ask rules are compound-command guards: a command that chains, pipes, substitutes or redirects (<code>;</code> <code>&amp;</code>{' '}
              <code>|</code> <code>$(</code> <code>`</code> <code>&gt;</code> <code>&lt;</code>, a new line) still comes to you, because ask wins over allow.
              They hold for {item.agent}'s other allow rules too.
            </p>
          ) : null}
          <p role="status" className="rule-reach" data-testid="rule-reach">
            {!valid
              ? 'Type a tool name.'
              : !profile
                ? 'Reading the agent’s rules…'
                : `With ${item.agent}'s rules and these (${profile.mode} mode), this call is ${mine ? WORD[mine] : 'not shown'}; of ${item.agent}'s other ${sameAgent.length - 1} pending card${sameAgent.length === 2 ? '' : 's'} shown, ${tally.allowed} allowed, ${tally.asks} still ask${tally.denied ? `, ${tally.denied} denied` : ''}${tally.refused ? `, ${tally.refused} refused` : ''}.`}
          </p>
          {tally.allowed ? (
            <ul className="rule-covers" aria-label="Pending cards these rules allow">
              {sameAgent
                .filter((c) => c.id !== item.id && outcomes.get(c.id) === 'allowed')
                .slice(0, 5)
                .map((c) => (
                  <li key={c.id}>
                    <code>{c.target}</code>
                  </li>
                ))}
              {tally.allowed > 5 ? <li className="muted">and {tally.allowed - 5} more</li> : null}
            </ul>
          ) : null}
          {warnings.map((w, i) => (
            <p key={i} className="warning" role="alert">
              <strong>Warning:</strong> {w.message.replace(/^rule \d+: /, '')}
            </p>
          ))}
          <div className="row-actions">
            <button type="button" className="btn primary" disabled={!valid || saving || !profile} onClick={() => void save()}>
              {warnings.length ? 'Save anyway and approve this call' : 'Save and approve this call'}
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
