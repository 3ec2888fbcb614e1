// The sandbox-exec (Seatbelt) profile for one sandboxed process (macOS). Pure: unit-tested on its text, as
// it cannot run on Linux. Same promise as bubblewrap's, as far as Seatbelt can keep it: reads everywhere
// except the hidden folders, writes only to the workspace and the private tmp, no network except NEXUS's
// proxy on loopback, signals only within the sandbox. (Seatbelt has no pid namespace: the kernel's
// processes stay listable; their environment is not readable by another process on macOS.)
import type { SandboxPolicy } from './policy.js';

/** A string literal in SBPL (a Scheme dialect): backslashes and quotes escaped. */
const lit = (s: string) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

export function seatbeltProfile(policy: SandboxPolicy, o: { tmpDir: string; proxyPort?: number }): string {
  const lines = [
    '(version 1)',
    '(deny default)',
    '(allow process-exec)',
    '(allow process-fork)',
    '(allow signal (target same-sandbox))',
    '(allow process-info* (target same-sandbox))',
    '(allow sysctl-read)',
    '(allow mach-lookup)',
    '(allow ipc-posix-shm)',
    '(allow file-read*)',
    // Later rules win in SBPL: hide the folders, then give the workspace back if it lies inside one.
    ...policy.hidden.map((h) => `(deny file-read* file-write* (subpath ${lit(h)}))`),
    `(allow file-read* (subpath ${lit(policy.workspace)}))`,
    `(allow file-write* (subpath ${lit(policy.workspace)}) (subpath ${lit(o.tmpDir)}) (literal "/dev/null") (literal "/dev/zero") (literal "/dev/tty") (literal "/dev/dtracehelper"))`,
    ...policy.hidden.filter((h) => !policy.workspace.startsWith(h + '/')).map((h) => `(deny file-read* file-write* (subpath ${lit(h)}))`),
  ];
  if (o.proxyPort) lines.push(`(allow network-outbound (remote ip ${lit(`localhost:${o.proxyPort}`)}))`);
  return lines.join('\n') + '\n';
}
