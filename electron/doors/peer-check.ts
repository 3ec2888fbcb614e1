// The peer check (defense in depth, DESIGN §7.3; not the wall): on the control socket, a call that is not a hook
// method is refused when a process holding the other end descends from a connected client's process or from
// an agent's process. The wall (NEXUS's sandbox, the client's own sandbox) keeps those processes away from the
// person's credential; this catches one that got it anyway.
//
// Who is who, by /proc/PID/stat (pid, parent, process group, start time; a pid with another start time is another
// process, so a reused pid never inherits a record):
// - a connected client: recorded when its hook connects with the hook credential. The hook is started by the
//   client, often through `sh -c`, so the client is the hook's nearest ancestor that is not a shell;
// - an agent's process: the groups NEXUS records before running an agent's command (the processes table: bash
//   rows, ACP agents), with everything below them or still in their process group.
import { readFileSync } from 'node:fs';
import type { ApiError } from '../../shared/api/index.js';
import type { Socket } from 'node:net';
import { hookProcesses, namePeer, type PeerName } from './peer.js';
import { log } from '../log.js';

export interface Proc {
  pid: number;
  ppid: number;
  pgid: number;
  start: string;
  comm: string;
}

/** One process as /proc says, or null when it is gone. comm is in parentheses and may hold anything. */
export function proc(pid: number): Proc | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = stat.lastIndexOf(')');
    const comm = stat.slice(stat.indexOf('(') + 1, close);
    const f = stat.slice(close + 2).split(' '); // f[0] is field 3 (state)
    return { pid, ppid: Number(f[1]), pgid: Number(f[2]), start: f[19] ?? '', comm };
  } catch {
    return null;
  }
}

/** The process and its ancestors, nearest first, up to (not including) pid 0. */
export function ancestry(pid: number): Proc[] {
  const out: Proc[] = [];
  for (let p = proc(pid); p && out.length < 512; p = p.ppid > 0 ? proc(p.ppid) : null) out.push(p);
  return out;
}

/** A shell running one command (`sh -c COMMAND`, `bash -lc …`): how clients start hooks. */
function runsCommand(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8')
      .split('\0')
      .slice(1)
      .some((a) => /^-[a-z]*c[a-z]*$/i.test(a));
  } catch {
    return false;
  }
}

/** Programs that start a hook for its client (`sh -c COMMAND`); the client is above them. */
const SHELLS = new Set(['sh', 'dash', 'bash', 'zsh', 'ksh', 'mksh', 'fish', 'busybox']);
/** Never a client: they are above the person's own commands too (an orphaned hook's parent is one of them). */
const NEVER_CLIENTS = new Set(['systemd', 'init', 'sshd', 'login', 'launchd']);

export interface AgentGroup {
  pgid: number;
  start_time: string;
}

/** The hook call's client name, for the refusal's sentence. */
const clientOf = (input: unknown): string => {
  const c: unknown = input && typeof input === 'object' ? Reflect.get(input, 'client') : undefined;
  return typeof c === 'string' && /^[a-z0-9-]{1,40}$/.test(c) ? c : 'a connected client';
};

/** The hook call's client session (client name + session id), or null when the event names none. */
const sessionOf = (input: unknown): string | null => {
  const e: unknown = input && typeof input === 'object' ? Reflect.get(input, 'event') : undefined;
  const id: unknown = e && typeof e === 'object' ? (Reflect.get(e, 'session_id') ?? Reflect.get(e, 'sessionID')) : undefined;
  return typeof id === 'string' && id.length > 0 && id.length <= 200 ? `${clientOf(input)}\0${id}` : null;
};

export const PEER_REFUSED = 'peer_refused';
export const PEER_UNNAMED = 'peer_unnamed';

const ELSEWHERE = 'decide from a terminal of your own, the window or the browser';

export class PeerCheck {
  /** Connected clients' processes seen through their hooks: pid → start time and client name. */
  private readonly clients = new Map<number, { start: string; client: string }>();
  /** A client session already on record (client + session id → its client's pid): its next hook calls skip the
   *  process walk while that process lives (one walk per session, not per call). */
  private readonly sessions = new Map<string, number>();
  private saidOff = false;

  constructor(
    /** The agent process groups NEXUS has recorded now. */
    private readonly agentGroups: () => AgentGroup[],
    private readonly self: number = process.pid,
  ) {}

  /** Hooks are running as `pids`: put each one's client on record. Returns the first client's pid, or null. */
  noteHook(name: PeerName, client: string): number | null {
    if (name.kind !== 'named') return null;
    const mine = new Set(ancestry(this.self).map((p) => p.pid));
    let found: number | null = null;
    for (const pid of name.pids) {
      const chain = ancestry(pid).slice(1);
      const c = chain.find((p) => !(SHELLS.has(p.comm) && runsCommand(p.pid)));
      // An interactive shell above a hook is a person who ran it by hand: their terminal is not a client.
      if (!c || c.pid <= 1 || mine.has(c.pid) || NEVER_CLIENTS.has(c.comm) || SHELLS.has(c.comm)) continue;
      if (this.clients.get(c.pid)?.start !== c.start) {
        log.info(`the peer check: ${client}'s process ${c.pid} (${c.comm}) is a connected client`);
        this.clients.set(c.pid, { start: c.start, client });
      }
      found ??= c.pid;
    }
    return found;
  }

  /** Why this peer may not call a non-hook method, or null when it may. */
  refusal(name: PeerName): ApiError | null {
    const r = this.verdict(name);
    if (r) log.warn(`the peer check refused a call (${r.code}): ${r.message}`);
    return r;
  }

  private verdict(name: PeerName): ApiError | null {
    if (name.kind === 'unsupported') {
      // No way to name a peer here: the wall stands alone. Said once.
      if (!this.saidOff) log.warn(`the control socket's peer check is off: ${name.why}`);
      this.saidOff = true;
      return null;
    }
    if (name.kind === 'unnamed') {
      return {
        code: PEER_UNNAMED,
        message: `NEXUS could not name the process on the other end of this connection (${name.why}), so it takes no decision from it: ${ELSEWHERE}.`,
      };
    }
    this.forgetGone();
    const groups = this.agentGroups();
    for (const pid of name.pids) {
      for (const p of ancestry(pid)) {
        const c = this.clients.get(p.pid);
        if (c && c.start === p.start) {
          return {
            code: PEER_REFUSED,
            message: `This connection comes from a process started by a connected client (${c.client}, pid ${p.pid}), and a client's commands cannot decide in NEXUS: ${ELSEWHERE}.`,
          };
        }
        const g = groups.find((x) => (x.pgid === p.pid && x.start_time === p.start) || x.pgid === p.pgid);
        if (g && p.pid !== this.self) {
          return {
            code: PEER_REFUSED,
            message: `This connection comes from a process an agent's command started (process group ${g.pgid}), and an agent's commands cannot decide in NEXUS: ${ELSEWHERE}.`,
          };
        }
      }
    }
    return null;
  }

  /** One connection's side of the check: its peer named once, at the first call that needs it. */
  connection(conn: Socket, path: string): { refusal(): Promise<ApiError | null>; noteHook(input: unknown): void } {
    let named: Promise<PeerName> | null = null;
    return {
      refusal: async () => this.refusal(await (named ??= namePeer(conn, path))),
      noteHook: (input) => {
        try {
          const key = sessionOf(input);
          const known = key === null ? undefined : this.sessions.get(key);
          if (known !== undefined && this.clients.has(known) && proc(known)?.start === this.clients.get(known)?.start) return;
          const pid = this.noteHook(hookProcesses(), clientOf(input));
          if (key !== null && pid !== null) this.sessions.set(key, pid);
        } catch (e) {
          log.warn("the peer check could not put a hook's client on record", e); // the hook's own answer goes on
        }
      },
    };
  }

  /** The clients recorded now (pids), after forgetting those that ended. */
  clientPids(): number[] {
    this.forgetGone();
    return [...this.clients.keys()];
  }

  private forgetGone(): void {
    for (const [pid, c] of this.clients) if (proc(pid)?.start !== c.start) this.clients.delete(pid);
    for (const [key, pid] of this.sessions) if (!this.clients.has(pid)) this.sessions.delete(key);
  }
}
