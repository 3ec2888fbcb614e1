// The host's root-only files, covered inside the sandbox when NEXUS runs as root. Root is mapped to nobody inside,
// with no capability, but Linux checks a file's permissions against the uid OUTSIDE, which is still 0: the process
// owns every root-owned file, so a file only root may read (/etc/shadow, the SSH host keys, /etc/sudoers,
// /etc/ssl/private, /boot's System.map) would be its to read. Each one found is covered: a file by /dev/null (on a
// nodev mount: it cannot be opened), a folder by an empty tmpfs. A person's own home is not touched: an agent reads
// its person's files as it would for anyone who runs NEXUS (their data dir aside, hidden always).
//
// Found once per process, by a walk of the system's folders that hold such files (real folders only, symlinks not
// followed; some 70 ms on a Debian machine, paid by the sandbox's probe at start or the first sandboxed command):
// a secret made while NEXUS runs is covered from its next start on.
import { lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Where system secrets live; a person's files are elsewhere (/root, /home, the workspaces). */
const SECRET_ROOTS = ['/etc', '/boot', '/var/lib', '/var/log', '/var/backups', '/var/spool', '/var/cache', '/usr/local/etc'] as const;
const MAX_DEPTH = 4;
/** A machine with more is covered up to this many (each is one mount in every sandbox). */
const MAX_COVERED = 256;

export interface RootSecrets {
  files: string[];
  dirs: string[];
}

/**
 * Entries under `roots` owned by `owner` that others may not read: a folder is covered whole (not walked into),
 * a regular file alone. Pure but for reading the file system.
 */
export function findRootSecrets(roots: readonly string[] = SECRET_ROOTS, owner = 0): RootSecrets {
  const found: RootSecrets = { files: [], dirs: [] };
  const full = () => found.files.length + found.dirs.length >= MAX_COVERED;
  const walk = (dir: string, depth: number) => {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return; // unreadable to root without capabilities too, or gone
    }
    for (const name of names) {
      if (full()) return;
      const p = join(dir, name);
      let st;
      try {
        st = lstatSync(p);
      } catch {
        continue;
      }
      const secret = st.uid === owner && (st.mode & 0o004) === 0;
      if (st.isDirectory()) {
        if (secret) found.dirs.push(p);
        else if (depth < MAX_DEPTH) walk(p, depth + 1);
      } else if (st.isFile() && secret) found.files.push(p);
    }
  };
  for (const r of roots) {
    try {
      if (!lstatSync(r).isDirectory()) continue;
    } catch {
      continue;
    }
    walk(r, 1);
  }
  return found;
}

let cache: RootSecrets | null = null;
const NONE: RootSecrets = Object.freeze({ files: [], dirs: [] });

/** The root-only files to cover: none unless NEXUS runs as root. */
export function rootSecrets(): RootSecrets {
  if (process.getuid?.() !== 0) return NONE;
  return (cache ??= findRootSecrets());
}
