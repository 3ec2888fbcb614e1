// 009 (desk): chains, orchestration holds, delegated tasks with their check evidence, and run starts reach the
// desk's record through the outbox (DESIGN §8). Triggers write the outbox row IN the transaction that changed
// the table, whichever module changed it, so the governance code needs no desk call of its own. They fire only
// while desk_state holds joined = true (the desk client sets it, a start without a desk clears it): without a
// desk nothing is written. The hot path (rows) is untouched; run updates fire only on a status change.
import type { Migration } from './types.js';

const JOINED = `(SELECT value_json FROM desk_state WHERE key = 'joined') = 'true'`;
const now = `CAST(unixepoch('subsec') * 1000 AS INTEGER)`;
const out = (kind: string, ref: string, data: string, at: string) =>
  `INSERT INTO desk_outbox (kind, ref, data_json, at) VALUES ('${kind}', ${ref}, json_object(${data}), ${at});`;

const run = `'run_id', NEW.id, 'agent', NEW.agent, 'status', NEW.status, 'mode', NEW.mode, 'chain_id', NEW.chain_id,
  'parent_run_id', NEW.parent_run_id, 'created_by', NEW.created_by`;
const chain = `'chain_id', NEW.id, 'starter', NEW.starter, 'starter_run_id', NEW.starter_run_id, 'touched', json(NEW.touched_json),
  'hop_count', NEW.hop_count`;
const hold = `'request_id', NEW.request_id, 'chain_id', NEW.chain_id, 'hop', NEW.hop, 'agent', NEW.agent, 'run_id', NEW.run_id,
  'row_id', NEW.row_id, 'tool', NEW.tool, 'target', NEW.target, 'status', NEW.status, 'reason', NEW.reason, 'answered_by', NEW.answered_by`;
const task = `'task_id', NEW.id, 'status', NEW.status, 'delegator', NEW.delegator, 'recipient', NEW.recipient, 'task', NEW.task,
  'check_command', NEW.check_command, 'run_id', NEW.run_id, 'chain_id', NEW.chain_id, 'refusals', NEW.refusals`;
const evidence = `'task_id', NEW.task_id, 'seq', NEW.seq, 'row_id', NEW.row_id, 'command', NEW.command, 'exit_code', NEW.exit_code,
  'passed', json(CASE WHEN NEW.passed THEN 'true' ELSE 'false' END), 'output', substr(NEW.output, 1, 4000), 'duration_ms', NEW.duration_ms`;

const trigger = (name: string, when: string, body: string) => `CREATE TRIGGER ${name} ${when} FOR EACH ROW WHEN ${JOINED} BEGIN ${body} END;`;

const migration: Migration = {
  version: 9,
  name: 'desk_record',
  up(db) {
    db.exec(
      [
        trigger('desk_run_start', 'AFTER INSERT ON runs', out('run_start', 'NEW.id', run, 'NEW.created_at')),
        trigger('desk_chain_new', 'AFTER INSERT ON chains', out('chain', 'NEW.id', chain, 'NEW.updated_at')),
        trigger('desk_chain_hop', 'AFTER UPDATE OF hop_count, touched_json ON chains', out('chain', 'NEW.id', chain, 'NEW.updated_at')),
        trigger('desk_hold_new', 'AFTER INSERT ON hop_holds', out('hold', 'NEW.request_id', hold, 'NEW.created_at')),
        trigger('desk_hold_status', 'AFTER UPDATE OF status ON hop_holds', out('hold', 'NEW.request_id', hold, now)),
        trigger('desk_task_new', 'AFTER INSERT ON tasks', out('task', 'NEW.id', task, 'NEW.updated_at')),
        trigger('desk_task_change', 'AFTER UPDATE OF status, refusals, run_id ON tasks', out('task', 'NEW.id', task, 'NEW.updated_at')),
        trigger('desk_task_evidence', 'AFTER INSERT ON task_evidence', out('task_evidence', 'NEW.task_id', evidence, 'NEW.at')),
      ].join('\n'),
    );
  },
};
export default migration;
