// `nexus entitlements` (DESIGN §5): import FILE | show | refresh, the entitlement that unlocks orchestration. It
// reaches the running kernel through the control socket of --data-dir.
import { resolve } from 'node:path';
import type { CliCommand } from './io.js';
import { MAX_TOKEN_FILE_BYTES, readBoundedText } from './read-json.js';
import { expectValue, parse, printJson, usageError, withKernel } from './common.js';
import type { MethodOutput } from '../../shared/api/index.js';
import { errorMessage } from '../../shared/errors.js';

// The API's own type (shared/api): a field the kernel renames or drops fails the type check here.
type EntitlementView = MethodOutput<'entitlementsShow'>;

// ── entitlements ───────────────────────────────────────────────────────────────────────────────────────────
const ENT_USAGE = `usage: nexus entitlements import FILE | show | refresh  [--data-dir DIR] [--json]
  refresh: take the entitlement from the account service now (the kernel was started with
           NEXUS_ACCOUNT_URL and NEXUS_ACCOUNT_TOKEN); on failure the stored entitlement is kept.
  import: FILE holds one EdDSA JWT (at most 65536 characters), verified before it is stored.`;
const sourceText = (e: EntitlementView) =>
  e.source === 'account'
    ? `\nfrom: the account service${e.account?.url ? ` at ${e.account.url}` : ''}${e.refreshed_at ? `, refreshed ${e.refreshed_at}` : ''}`
    : e.source === 'import'
      ? '\nfrom: an imported file'
      : '';
const accountText = (e: EntitlementView) => {
  const a = e.account;
  if (!a) return '';
  if (a.problem) return `\naccount service: not used: ${a.problem}`;
  if (!a.configured) return '';
  const last = a.last_refresh
    ? a.last_refresh.ok
      ? `; last refresh ${a.last_refresh.at} succeeded`
      : `; last refresh ${a.last_refresh.at} failed (${a.last_refresh.code})`
    : '';
  return `\naccount service: ${a.url}${last}`;
};
const entText = (e: EntitlementView) =>
  `${e.message}\nstatus: ${e.status}\nentitled to nexus.orchestration: ${e.entitled ? 'yes' : 'no'}${e.entitlements.length ? `\nentitlements: ${e.entitlements.join(', ')}` : ''}${e.subject ? `\naccount: ${e.subject}` : ''}${e.expires_at ? `\nexpires: ${e.expires_at}` : ''}${sourceText(e)}${accountText(e)}`;
export const entitlementsCommand: CliCommand = async (argv, io) => {
  const p = parse(argv, {}, io, ENT_USAGE);
  if ('exit' in p) return p.exit;
  const [sub, file, ...extra] = p.positionals;
  if (sub === 'import' ? !file || extra.length : sub === 'show' || sub === 'refresh' ? file !== undefined : true) {
    return usageError(
      io,
      ENT_USAGE,
      sub && !['import', 'show', 'refresh'].includes(sub) ? `unknown subcommand ${sub}` : 'entitlements import FILE | show | refresh',
    );
  }
  let token: string | undefined;
  if (sub === 'import') {
    try {
      token = (await readBoundedText(resolve(file!), MAX_TOKEN_FILE_BYTES)).trim();
    } catch (e) {
      io.err(`nexus: cannot read the entitlement file ${file}: ${errorMessage(e)}`);
      return 1;
    }
  }
  return withKernel(p.values, io, async (api) => {
    if (sub === 'refresh') {
      // A failed refresh is exit 1 with the sentence on stderr; with --json the {ok: false, error: {code,
      // message}} is also printed on stdout, so a script can act on the code.
      const r = await api.entitlementsRefresh({});
      if (!r.ok) {
        io.err(`nexus: ${r.error.message} (${r.error.code})`);
        io.error?.(r.error.code, r.error.message);
        return 1;
      }
      const v = r.value;
      if (p.values.json) printJson(io, v);
      else io.out(`Refreshed from the account service.\n${entText(v)}`);
      return 0;
    }
    const r = await expectValue(io, sub === 'import' ? api.entitlementsImport({ token: token! }) : api.entitlementsShow({}));
    if (!r) return 1;
    if (p.values.json) printJson(io, r.value);
    else io.out(entText(r.value));
    return 0;
  });
};
