// What the turn engine picks up after a restart: cards nobody waits on any more are closed (the runs' loops
// ask again when they get there), and the runs with a conversation still `running` resume.
import type { Db } from '../store/db.js';
import type { Kernel } from '../kernel/kernel.js';
import type { Questions } from './ask.js';
import { cancelQuestion } from '../store/queries/conversation.js';
import { HOOK_SOURCE, type HookRunner } from './hooks.js';

/** Questions and hook attention cards from before the restart that this process does not wait on. */
export function closeOrphanedCards(kernel: Kernel, db: Db, questions: Questions, hooks: HookRunner): void {
  for (const item of kernel.inbox.pendingOfKinds(['question', 'attention'])) {
    const mine =
      item.kind === 'question'
        ? !questions.waitsOn(item.id)
        : item.kind === 'attention' && (item.data.source ?? HOOK_SOURCE) === HOOK_SOURCE && !hooks.waitsOn(item.id);
    if (mine) {
      if (item.kind === 'question') cancelQuestion(db, item.id, kernel.clock.now());
      kernel.inbox.resolve(item.id, 'canceled');
    }
  }
}
