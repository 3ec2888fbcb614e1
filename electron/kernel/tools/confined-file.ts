// Writing a workspace file without a check-then-write race. The path is confined first (workspace.ts), then
// the file is OPENED, and the opened descriptor — not the path — is what gets checked and written:
//   - the last component is opened with O_NOFOLLOW (a symlink swapped in after the check is refused);
//   - it must be a regular file with exactly one link: a hard link makes one inode reachable under two names,
//     so writing "ws/notes" would change e.g. ~/.bashrc; two names inside the workspace are refused the same
//     way (the tool cannot know which name the person meant);
//   - where the descriptor really lives is read back from the kernel (/proc/self/fd/N on Linux), so a folder
//     swapped for a symlink between the check and the open is caught after the open, before any byte is written.
// Elsewhere (no /proc) the fallback compares the descriptor's dev/ino with a fresh realpath of the path,
// which narrows the window but cannot close it; NEXUS's sandboxed runs are Linux.
import {
  closeSync,
  constants,
  fstatSync,
  ftruncateSync,
  lstatSync,
  openSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { confine, ConfinementError, display } from './workspace.js';
import { sep } from 'node:path';

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const inside = (root: string, p: string) => p === root || p.startsWith(root.endsWith(sep) ? root : root + sep);

export interface ConfinedFile {
  fd: number;
  /** The confined real path (for messages and diffs). */
  real: string;
  created: boolean;
}

/** Where the open descriptor actually is, as the kernel sees it now (null when it cannot say). */
function openedPath(fd: number): string | null {
  try {
    return readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return null;
  }
}

function verify(fd: number, root: string, real: string, shown: string): void {
  const st = fstatSync(fd);
  if (!st.isFile()) throw new ConfinementError(`${shown} is not a regular file; refused`);
  if (st.nlink > 1) throw new ConfinementError(`${shown} has ${st.nlink} hard links (the same file under another name, maybe outside the workspace); refused`);
  const where = openedPath(fd);
  if (where !== null) {
    if (where.endsWith(' (deleted)') || !inside(root, where))
      throw new ConfinementError(`${shown} was opened at ${where}, outside the workspace ${root}; refused`);
    return;
  }
  let now: { dev: number; ino: number };
  let path: string;
  try {
    path = realpathSync(real);
    now = statSync(path);
  } catch {
    throw new ConfinementError(`${shown} changed while it was being opened; refused`);
  }
  if (!inside(root, path) || now.dev !== st.dev || now.ino !== st.ino) throw new ConfinementError(`${shown} changed while it was being opened; refused`);
}

/**
 * Open a workspace file for writing. `create`: a missing file is created (O_CREAT|O_EXCL, never through
 * an existing name); otherwise a missing file is an ENOENT error. Nothing is truncated here: the caller
 * writes through `replaceContent` only after the checks passed.
 */
export function openConfined(workspace: string, p: unknown, opts: { create: boolean }): ConfinedFile {
  const root = realpathSync(workspace);
  const real = confine(root, p);
  const shown = display(root, real);
  let fd: number;
  let created = false;
  try {
    fd = openSync(real, constants.O_RDWR | NOFOLLOW);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') throw new ConfinementError(`${shown} became a symlink; refused`);
    if (code !== 'ENOENT' || !opts.create) throw e;
    fd = openSync(real, constants.O_RDWR | constants.O_CREAT | constants.O_EXCL | NOFOLLOW, 0o666);
    created = true;
  }
  try {
    verify(fd, root, real, shown);
  } catch (e) {
    if (created) removeStray(fd);
    closeSync(fd);
    throw e;
  }
  return { fd, real, created };
}

/** A file this call created somewhere it must not be: remove it again, if that name is still that file. */
function removeStray(fd: number): void {
  const where = openedPath(fd);
  if (!where || where.endsWith(' (deleted)')) return;
  try {
    const a = fstatSync(fd);
    const b = lstatSync(where);
    if (a.dev === b.dev && a.ino === b.ino && a.size === 0) unlinkSync(where);
  } catch {
    /* gone already */
  }
}

export const readContent = (fd: number): string => readFileSync(fd, 'utf8');

/** Replace the whole content through the descriptor (positional writes: no shared file offset involved). */
export function replaceContent(fd: number, text: string): void {
  const buf = Buffer.from(text, 'utf8');
  ftruncateSync(fd, 0);
  let off = 0;
  while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off, off);
}

/** Open, act, always close. */
export function withConfinedFile<T>(workspace: string, p: unknown, opts: { create: boolean }, fn: (f: ConfinedFile) => T): T {
  const f = openConfined(workspace, p, opts);
  try {
    return fn(f);
  } finally {
    closeSync(f.fd);
  }
}
