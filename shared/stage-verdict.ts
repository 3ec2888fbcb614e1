// The approval stage's whole verdict on one recorded call (seed 000, "The stage" and "The modes"): what the rules
// decided, then what the kernel knows of the call beyond them. One value, made once: the stage records it and
// announces what it recorded; nothing after it decides again. Pure: the kernel answers its two questions
// (could this call ever run here? does a session grant cover it?) through functions it hands in, and each is
// asked only when the verdict turns on it, so a call the rules grant or deny pays for neither.
//
//   rules say   | escape asked        | can never run     | trusted     | verdict
//   failed      | any                 | any               | any         | refuse (the rule's reason)
//   granted     | no                  | any               | any         | grant (mode, rule or origin)
//   granted     | yes                 | no                | any         | park, as an escape
//   parked      | yes                 | no                | any         | park, as an escape (trust never grants one)
//   parked      | no                  | no                | yes         | grant (trust)
//   parked      | no                  | no                | no          | park
//   not failed  | yes, or it parks    | yes               | any         | refuse (the sentence running it would give)
import type { GrantedBy } from './types.js';
import type { Evaluation } from './rules/evaluate.js';

export interface StageFacts {
  /** The call asks to leave its client's own sandbox (the client's words): deny rules still bind, nothing but a person grants it. */
  escape?: string;
  /** Why the call can never run here (the code and sentence execution would give), or null. */
  unrunnable(): { code: string; text: string } | null;
  /** Whether this agent's session trust covers the call. */
  trusted(): boolean;
}

export type StageVerdict =
  | { act: 'grant'; granted_by: GrantedBy | 'trust'; tool: string; matched: number[] }
  | { act: 'park'; tool: string; matched: number[]; escape?: string }
  /** `by`: a deny rule or the mode (approval_denied), or a call that can never run (the tool's own code). */
  | { act: 'refuse'; by: 'rules' | 'unrunnable'; code: string; detail: string; tool: string; matched: number[] };

export function stageVerdict(evaluation: Evaluation, facts: StageFacts): StageVerdict {
  const { tool, matched } = evaluation;
  if (evaluation.outcome === 'failed') return { act: 'refuse', by: 'rules', code: evaluation.error.code, detail: evaluation.error.detail, tool, matched };
  if (evaluation.outcome === 'granted' && !facts.escape) return { act: 'grant', granted_by: evaluation.granted_by, tool, matched };
  // A person would be asked: a call that could only fail is refused now, and nothing waits 24 h for it.
  const unrunnable = facts.unrunnable();
  if (unrunnable) return { act: 'refuse', by: 'unrunnable', code: unrunnable.code, detail: unrunnable.text, tool, matched };
  if (facts.escape) return { act: 'park', tool, matched, escape: facts.escape };
  // Session trust relaxes the agent's own autonomy parks; deny rules were applied above.
  if (facts.trusted()) return { act: 'grant', granted_by: 'trust', tool, matched };
  return { act: 'park', tool, matched };
}
