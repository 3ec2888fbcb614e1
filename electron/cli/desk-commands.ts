// `nexus desk status [--json]` and `nexus desk leave [--force] [--json]`: this machine's seat at a team desk, asked
// of the running kernel through the control socket (docs/desk.md). `nexus desk init` talks to Postgres itself and
// lives in the serve module (desk.ts); main.ts hands it in, so this client command loads no npm package.
import type { CliCommand } from './io.js';
import { expectValue, parse, printJson, usageError, withKernel } from './common.js';
import type { MethodOutput } from '../../shared/api/index.js';

const USAGE = `usage: nexus desk init URL [--json]          create or upgrade a team desk's schema (nexus desk init --help)
       nexus desk status [--data-dir DIR] [--json]
       nexus desk leave [--force] [--data-dir DIR] [--json]
       nexus desk policy push [--data-dir DIR] [--json]
  status: whether this machine is at a desk, connected or not, its machine name and person, when it last heard
          the desk, how many changes wait in its outbox, and whether the silence stop is engaged.
          --json: {"joined","source","url","machine","person","connected","last_heard_at","outbox_pending",
                   "silence_stop","silence_stop_s","password_stored","last_error"} (url never carries a password).
  leave:  send what waits in the outbox, mark this machine gone at the desk, forget the seat and its password.
          --force leaves even when the desk cannot be reached (the outbox stays here, sent if it joins again).
  policy push: publish this machine's agent profiles and settings (the allowlist among them) to the desk's
          policy as this machine's person, who must be a member of nexus_policy (the database refuses anyone
          else). Every machine at the desk applies them, and refuses local edits of them while it is joined.
          --json: {"keys","person"}.
  A machine joins with nexus serve --desk URL --machine NAME, or in the window: Settings ▸ Desk.`;

type Status = MethodOutput<'deskStatus'>;

/** The first word that is not an option (nor --data-dir's folder). */
function subcommand(argv: string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--data-dir') i++;
    else if (argv[i] === '--') return argv[i + 1];
    else if (!argv[i].startsWith('-')) return argv[i];
  }
  return undefined;
}

const ago = (iso: string, now = Date.now()) => {
  const s = Math.max(0, (now - Date.parse(iso)) / 1000);
  return s < 10 ? `${s.toFixed(1)} s ago` : s < 120 ? `${Math.round(s)} s ago` : `${Math.round(s / 60)} min ago (${iso})`;
};

export function statusText(s: Status): string {
  if (!s.joined) return 'This machine is not at a team desk. Join one with nexus serve --desk URL --machine NAME, or in the window: Settings ▸ Desk.';
  const heard = s.last_heard_at ? `last heard ${ago(s.last_heard_at)}` : 'never heard yet';
  return [
    `desk: ${s.url}${s.source === 'start' ? ' (joined at start: --desk or NEXUS_DESK_URL)' : ' (joined in Settings ▸ Desk)'}`,
    `machine: ${s.machine}${s.person ? ` · person: ${s.person}` : ' · no person (answers at the desk need one: --desk-person)'}`,
    `connection: ${s.connected ? 'connected' : 'NOT connected'} · ${heard}${s.last_error ? `\n  last error: ${s.last_error}` : ''}`,
    `outbox: ${s.outbox_pending} change${s.outbox_pending === 1 ? '' : 's'} waiting to reach the desk`,
    s.silence_stop
      ? `silence stop: ENGAGED (no word from the desk for over ${s.silence_stop_s} s): governed hops stop until it is heard again`
      : `silence stop: off (engages after ${s.silence_stop_s} s without the desk)`,
  ].join('\n');
}

export const deskCommandWith =
  (init: CliCommand): CliCommand =>
  async (argv, io) => {
    const sub = subcommand(argv);
    if (sub === 'init') return init(argv, io);
    const p = parse(argv, { force: { type: 'boolean', default: false } }, io, USAGE);
    if ('exit' in p) return p.exit;
    const [, ...rest] = p.positionals;
    if (sub === 'policy') return policyCommand(rest, p.values, io);
    if (sub !== 'status' && sub !== 'leave') return usageError(io, USAGE, sub ? `unknown desk command ${JSON.stringify(sub)}` : 'which desk command?');
    if (rest.length) return usageError(io, USAGE, `unexpected ${rest.join(' ')}`);
    if (sub === 'status' && p.values.force) return usageError(io, USAGE, '--force is for nexus desk leave');
    return withKernel(p.values, io, async (api) => {
      if (sub === 'status') {
        const r = await expectValue(io, api.deskStatus({}));
        if (!r) return 1;
        if (p.values.json) printJson(io, r.value);
        else io.out(statusText(r.value));
        return 0;
      }
      const before = await expectValue(io, api.deskStatus({}));
      if (!before) return 1;
      const r = await expectValue(io, api.deskLeave(p.values.force ? { force: true } : {}));
      if (!r) return 1;
      if (p.values.json) printJson(io, r.value);
      else if (!before.value.joined) io.out('This machine is not at a team desk: nothing to leave.');
      else {
        io.out(`Left the desk at ${before.value.url} (machine ${before.value.machine}).`);
        if (before.value.source === 'start')
          io.out('This kernel was started with --desk or NEXUS_DESK_URL: it joins again at its next start unless that is removed.');
      }
      return 0;
    });
  };

/** `nexus desk policy push`: the refusal of a person outside nexus_policy is the database's, said in one sentence. */
function policyCommand(rest: string[], values: Parameters<typeof withKernel>[0] & { json?: boolean; force?: boolean }, io: Parameters<CliCommand>[1]) {
  if (rest[0] !== 'push' || rest.length > 1)
    return usageError(io, USAGE, rest.length ? `unknown desk policy command ${JSON.stringify(rest.join(' '))}` : 'nexus desk policy push?');
  if (values.force) return usageError(io, USAGE, '--force is for nexus desk leave');
  return withKernel(values, io, async (api) => {
    const r = await expectValue(io, api.deskPolicyPush({}));
    if (!r) return 1;
    if (values.json) printJson(io, r.value);
    else {
      const agents = r.value.keys.filter((k) => k.startsWith('agent:')).map((k) => k.slice('agent:'.length));
      const settings = r.value.keys.includes('settings') ? ' and the settings (the allowlist among them)' : '';
      io.out(
        `Published to the desk's policy as ${r.value.person}: ${agents.length ? `agents ${agents.join(', ')}` : 'no agents'}${settings}. Every machine at the desk applies them.`,
      );
    }
    return 0;
  });
}
