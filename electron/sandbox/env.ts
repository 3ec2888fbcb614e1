// A sandboxed (or unsandboxed) child's environment is built from an ALLOWLIST, never copied from the
// kernel's: the kernel holds provider keys (apiKeyEnv), NEXUS_* settings and whatever its launcher exported.
// Only the fixed names below and the ones the profile names explicitly reach a child; NEXUS_* and the
// agent's provider-key variable never do, whatever the profile says.
export const BASE_ENV = ['PATH', 'HOME', 'LANG', 'LC_ALL', 'LC_CTYPE', 'TERM', 'USER', 'LOGNAME', 'SHELL', 'TMPDIR', 'TZ'] as const;

const FALLBACK_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

export function childEnv(
  from: NodeJS.ProcessEnv = process.env,
  o: { passthrough?: readonly string[]; withheld?: readonly string[]; set?: Record<string, string> } = {},
): Record<string, string> {
  const withheld = new Set(o.withheld ?? []);
  const out: Record<string, string> = {};
  for (const name of [...BASE_ENV, ...(o.passthrough ?? [])]) {
    if (/^NEXUS_/i.test(name) || withheld.has(name)) continue;
    const v = from[name];
    if (typeof v === 'string') out[name] = v;
  }
  out.PATH ??= FALLBACK_PATH;
  // Values the sandbox itself sets (TMPDIR, proxy variables) win over inherited ones.
  for (const [k, v] of Object.entries(o.set ?? {})) if (!/^NEXUS_/i.test(k)) out[k] = v;
  return out;
}
