// The governance methods of the API (shared/api/orchestration.ts): settings, Stop all / Resume, the
// entitlement, Recent chains, delegated tasks, over the governance service electron/app.ts hands over.
import type { Handlers } from './dispatch.js';
import { ApiFailure } from './dispatch.js';
import type { Governance } from '../governance/service.js';
import { getTask, listEvidence, listTasksPage } from '../store/queries/tasks.js';
import { evidenceView } from '../governance/acceptance-check.js';
import { methodNames } from '../../shared/api/contract.js';
import { orchestrationMethods } from '../../shared/api/orchestration.js';

/** What this module serves: the contract's orchestration group, by name. */
export const GOVERNANCE_METHODS = methodNames(orchestrationMethods);
type GovernanceMethods = (typeof GOVERNANCE_METHODS)[number];

export function orchestrationHandlers(gov: Governance): Pick<Handlers, GovernanceMethods> {
  return {
    settingsGet: () => gov.settings(),
    settingsSet: ({ key, value }) => gov.setSetting(key, value),
    stopAll: () => gov.stopAll(),
    resume: () => gov.resume(),
    entitlementsImport: ({ token }) => gov.importEntitlement(token),
    entitlementsShow: () => gov.showEntitlement(),
    entitlementsRefresh: () => gov.refreshEntitlement(),
    chainsList: ({ limit, cursor }) => {
      const chains = gov.recent.list();
      const from = cursor === undefined ? 0 : chains.findIndex((c) => c.chain_id === cursor) + 1;
      if (from === 0 && cursor !== undefined)
        throw new ApiFailure(
          'invalid_input',
          `The cursor ${JSON.stringify(cursor)} is not a chain in the Recent chains list (it may have been cleared); list again without a cursor.`,
        );
      return chains.slice(from, limit === undefined ? undefined : from + limit);
    },
    chainsClear: () => ({ cleared: gov.recent.clear() }),
    tasksList: ({ limit, cursor }) => {
      const waiting = gov.waitingOn();
      const page = listTasksPage(gov.db, { limit, cursor });
      if (!page)
        throw new ApiFailure(
          'invalid_input',
          `The cursor ${JSON.stringify(cursor)} is not a delegated task's id; list again without a cursor, or pass the id of the last task of a page.`,
        );
      return page.map((t) => ({
        id: t.id,
        delegator: t.delegator,
        recipient: t.recipient,
        task: t.task,
        state: t.status,
        refusals: t.refusals,
        last_check_exit_code: t.last_check_exit_code,
        run_id: t.run_id,
        created_at: new Date(t.created_at).toISOString(),
        waiting_on: (t.run_id && waiting.get(t.run_id)) || [],
      }));
    },
    tasksShow: ({ id }) => {
      const t = getTask(gov.db, id);
      if (!t) throw new ApiFailure('not_found', `No task ${JSON.stringify(id)}.`);
      return {
        id: t.id,
        status: t.status,
        delegator: t.delegator,
        recipient: t.recipient,
        task: t.task,
        acceptance_check: { command: t.check_command, ...(t.check_timeout_s != null ? { timeout_s: t.check_timeout_s } : {}) },
        run_id: t.run_id,
        chain_id: t.chain_id,
        refusals: t.refusals,
        answer: t.answer,
        evidence: listEvidence(gov.db, t.id).map(evidenceView),
      };
    },
  };
}
