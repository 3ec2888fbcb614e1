// The data dir holds the database (every run, card and profile), the secret store, the lock and the control
// socket: only its owner may read it. At every start the folder is made 0700 and its files 0600; what was
// looser is reported, because someone (or a tool) made it so and the person should know.
import { chmodSync, closeSync, existsSync, lstatSync, openSync } from 'node:fs';
import { join } from 'node:path';

/** The data dir's own files (other files a person put there are left alone). */
export const PRIVATE_FILES = ['nexus.db', 'nexus.db-wal', 'nexus.db-shm', 'nexus.lock', 'nexus.sock', 'secrets.json', 'keys.json'];

const octal = (mode: number) => (mode & 0o777).toString(8).padStart(4, '0');

/** Make the folder 0700 and its files 0600. Returns one sentence per thing that was looser (empty: all fine). */
export function tightenDataDir(dataDir: string, platform: NodeJS.Platform = process.platform): string[] {
  if (platform === 'win32') return []; // POSIX modes do not apply; the folder is under the user's profile
  const loosened: string[] = [];
  const fix = (path: string, want: number, what: string) => {
    const st = lstatSync(path);
    if (st.isSymbolicLink()) return; // never chmod through a link to somewhere else
    if ((st.mode & 0o777) !== want && st.mode & 0o077) loosened.push(`${what} was ${octal(st.mode)}, now ${octal(want)}`);
    if ((st.mode & 0o777) !== want) chmodSync(path, want);
  };
  fix(dataDir, 0o700, `the data dir ${dataDir}`);
  for (const name of PRIVATE_FILES) {
    const path = join(dataDir, name);
    if (existsSync(path)) fix(path, 0o600, name);
  }
  return loosened;
}

/** Create the database file 0600 before SQLite opens it: its -wal and -shm files take the same mode. */
export function precreatePrivate(path: string): void {
  closeSync(openSync(path, 'a', 0o600));
}
