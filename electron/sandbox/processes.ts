// Nothing an agent's call started outlives the kernel. Each running row's process group is recorded (with
// its leader's start time) before its command runs; at start, recovery kills every recorded group whose
// leader is still the same process (same pid AND same start time: a reused pid is never killed), then
// forgets them all. While running, Stop all and force-stop kill the whole group (bash.ts).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Db } from '../store/db.js';
import { clearProcesses, listProcesses } from '../store/queries/processes.js';

/** When process `pid` started, as the OS says (Linux: /proc/<pid>/stat field 22), or null if it is gone. */
export function processStartTime(pid: number): string | null {
  if (!Number.isInteger(pid) || pid <= 0) return null;
  if (process.platform === 'linux') {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // Field 2 (comm) is in parentheses and may hold spaces: count fields after its closing paren.
      const after = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return after[19] ?? null; // fields 3.. start at index 0, so field 22 is index 19
    } catch {
      return null;
    }
  }
  try {
    const out = execFileSync('ps', ['-o', 'lstart=', '-p', String(pid)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    return out || null;
  } catch {
    return null;
  }
}

/** Kill every recorded process group still led by the same process; forget all records. Returns the killed. */
export function killSurvivors(
  db: Db,
  kill: (pid: number, sig: NodeJS.Signals) => void = process.kill.bind(process),
): Array<{ pgid: number; row_id: string | null }> {
  const killed: Array<{ pgid: number; row_id: string | null }> = [];
  for (const p of listProcesses(db)) {
    if (processStartTime(p.pgid) !== p.start_time) continue;
    try {
      kill(-p.pgid, 'SIGKILL');
    } catch {
      /* the group is gone (or only its leader is left): try the leader */
    }
    try {
      kill(p.pgid, 'SIGKILL');
    } catch {
      /* gone */
    }
    killed.push({ pgid: p.pgid, row_id: p.row_id });
  }
  clearProcesses(db);
  return killed;
}
