// Opening a workspace path without a check-then-use race: the file tools run in the kernel, unsandboxed, while
// the agent's bash may swap any workspace entry for a symlink at any instant. The path is confined first
// (workspace.ts: `..`, absolute paths and links that lead out refused; links that stay inside resolved), then
// OPENED one component at a time from the workspace's own descriptor, and only descriptors are trusted:
//   - each component is opened relative to the checked descriptor of the folder before it
//     (/proc/self/fd/DIR/name on Linux: openat's semantics), O_NOFOLLOW (O_DIRECTORY for folders), so a link
//     swapped in after the check is refused, never followed;
//   - each opened descriptor is checked: its type (fstat) and where the kernel says it is (readlink of
//     /proc/self/fd/N), which must be inside the workspace's realpath;
//   - missing folders (write) are made one at a time inside the checked folder, each opened and checked
//     before the next; a new file is created O_CREAT|O_EXCL inside the checked folder;
//   - a file to be written must have exactly one link: a hard link makes one inode reachable under two
//     names, so writing "ws/notes" could change e.g. ~/.bashrc (two names inside are refused the same way);
//   - O_NONBLOCK: a FIFO planted in the workspace is refused instead of hanging the kernel.
// The tools then read, write, truncate and list through the descriptor only.
// Without /proc (macOS), each open names the full real path with O_NOFOLLOW_ANY (macOS 11+: no link
// anywhere in the path; confine handed us a path without links), and the descriptor's dev/ino is compared
// with a fresh realpath; a folder swapped between two steps can still make an empty folder appear outside
// before the swap is seen, and `list` reads the checked folder by name again. NEXUS's sandboxed runs are Linux.
import {
  closeSync,
  constants,
  fstatSync,
  ftruncateSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  statSync,
  unlinkSync,
  writeSync,
  type Dirent,
  type Stats,
} from 'node:fs';
import { join, relative, sep } from 'node:path';
import { confine, ConfinementError } from './workspace.js';

const PROC = process.platform === 'linux';
const NOFOLLOW = (constants.O_NOFOLLOW ?? 0) | (process.platform === 'darwin' ? 0x20000000 : 0);
const NONBLOCK = constants.O_NONBLOCK ?? 0;
const DIR = constants.O_RDONLY | (constants.O_DIRECTORY ?? 0) | NOFOLLOW | NONBLOCK;
const inside = (root: string, p: string) => p === root || p.startsWith(root.endsWith(sep) ? root : root + sep);

/** A failure the model reads as one clean sentence (a workspace-relative path, no errno prefix). */
export class FileToolError extends Error {
  constructor(
    message: string,
    readonly shown: string,
    readonly missing = false,
  ) {
    super(message);
  }
}

/** read: a file or a folder; write: an existing file; create: a file, made with its folders; list: a folder. */
export type OpenMode = 'read' | 'write' | 'create' | 'list';

export interface Opened {
  fd: number;
  /** The confined real path (absolute: for the kernel only). */
  real: string;
  /** The path relative to the workspace (`.` for itself): what people and the model read. */
  shown: string;
  isDir: boolean;
  created: boolean;
}

interface Step {
  fd: number;
  real: string;
}
const at = (dir: Step, name: string) => (PROC ? `/proc/self/fd/${dir.fd}/${name}` : join(dir.real, name));

const swapped = (shown: string) =>
  new ConfinementError(`${shown} became a symlink after the path was checked (a link may lead outside the workspace); refused`);

/** The checked descriptor's own location must be inside the workspace (Linux: as the kernel names it now). */
function check(fd: number, root: string, real: string, shown: string): void {
  if (PROC) {
    const where = readlinkSync(`/proc/self/fd/${fd}`);
    if (where.endsWith(' (deleted)') || !inside(root, where))
      throw new ConfinementError(`${shown} was found outside the workspace once opened (a folder on its way was swapped for a link); refused`);
    return;
  }
  const st = fstatSync(fd);
  let now: { dev: number; ino: number } | null = null;
  try {
    const path = realpathSync(real);
    if (inside(root, path)) now = statSync(path);
  } catch {
    /* gone: refused below */
  }
  if (!now || now.dev !== st.dev || now.ino !== st.ino) throw new ConfinementError(`${shown} changed while it was being opened; refused`);
}

/** Open `name` in the checked folder `dir`; errors become sentences about `shown` (the component so far). */
function openIn(dir: Step, name: string, flags: number, shown: string, target: string, mode?: number): number {
  try {
    return openSync(at(dir, name), flags, mode);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    // What is there now says why: a link (or, for a folder refused as "not a folder", a folder again) was
    // swapped in and out around the open (gone again: it was no plain file either).
    let now: Stats | undefined;
    try {
      now = lstatSync(at(dir, name));
    } catch {
      /* gone again */
    }
    if (code === 'ELOOP' || now?.isSymbolicLink() || (code === 'ENOTDIR' && (!now || now.isDirectory()))) throw swapped(shown);
    if (code === 'ENOENT') throw new FileToolError(`${target} does not exist.`, target, true);
    if (code === 'ENOTDIR') throw new FileToolError(`${shown} is not a folder.`, target);
    if (code === 'EISDIR') throw new FileToolError(`${shown} is a directory.`, target);
    if (code === 'EEXIST') throw new ConfinementError(`${shown} changed while it was being opened; refused`);
    if (code === 'EACCES' || code === 'EPERM') throw new FileToolError(`${shown}: permission denied.`, target);
    throw new FileToolError(`${shown} could not be opened (${code ?? 'error'}).`, target);
  }
}

/** The folder `name` in `dir`, made first when `make` and it is missing; opened and checked. */
function openFolder(dir: Step, name: string, make: boolean, root: string, shown: string, target: string): Step {
  const real = join(dir.real, name);
  let fd: number;
  try {
    fd = openIn(dir, name, DIR, shown, target);
  } catch (e) {
    if (!(make && e instanceof FileToolError && e.missing)) throw e;
    try {
      mkdirSync(at(dir, name));
    } catch (m) {
      if ((m as NodeJS.ErrnoException).code !== 'EEXIST') throw m;
    }
    fd = openIn(dir, name, DIR, shown, target);
  }
  try {
    check(fd, root, real, shown);
  } catch (e) {
    closeSync(fd);
    throw e;
  }
  return { fd, real };
}

function openLast(dir: Step, name: string, mode: OpenMode, shown: string): { fd: number; created: boolean } {
  if (mode === 'list') return { fd: openIn(dir, name, DIR, shown, shown), created: false };
  if (mode === 'read') return { fd: openIn(dir, name, constants.O_RDONLY | NOFOLLOW | NONBLOCK, shown, shown), created: false };
  const rw = constants.O_RDWR | NOFOLLOW | NONBLOCK;
  try {
    return { fd: openIn(dir, name, rw, shown, shown), created: false };
  } catch (e) {
    if (!(mode === 'create' && e instanceof FileToolError && e.missing)) throw e;
    return { fd: openIn(dir, name, rw | constants.O_CREAT | constants.O_EXCL, shown, shown, 0o666), created: true };
  }
}

/** What the opened descriptor must be for `mode`; throws the sentence when it is not. */
function checkKind(fd: number, mode: OpenMode, shown: string): boolean {
  const st = fstatSync(fd);
  if (st.isDirectory()) {
    if (mode === 'read' || mode === 'list') return true;
    throw new FileToolError(`${shown} is a directory.`, shown);
  }
  if (mode === 'list') throw new FileToolError(`${shown} is not a folder.`, shown);
  if (!st.isFile()) throw new ConfinementError(`${shown} is not a regular file; refused`);
  if (mode !== 'read' && st.nlink > 1)
    throw new ConfinementError(`${shown} has ${st.nlink} hard links (the same file under another name, maybe outside the workspace); refused`);
  return false;
}

/** Open a workspace path as described at the top of this file; the caller closes `fd`. */
export function openConfined(workspace: string, p: unknown, mode: OpenMode): Opened {
  const root = realpathSync(workspace);
  const real = confine(root, p);
  const shown = relative(root, real) || '.';
  const parts = shown === '.' ? [] : shown.split(sep);
  let dir: Step = { fd: openSync(root, DIR), real: root };
  try {
    check(dir.fd, root, root, '.');
    for (let i = 0; i < parts.length - 1; i++) {
      const next = openFolder(dir, parts[i], mode === 'create', root, parts.slice(0, i + 1).join(sep), shown);
      closeSync(dir.fd);
      dir = next;
    }
    if (parts.length === 0) {
      checkKind(dir.fd, mode, shown);
      const opened = { fd: dir.fd, real, shown, isDir: true, created: false };
      dir = { fd: -1, real };
      return opened;
    }
    const { fd, created } = openLast(dir, parts[parts.length - 1], mode, shown);
    try {
      check(fd, root, real, shown);
      return { fd, real, shown, isDir: checkKind(fd, mode, shown), created };
    } catch (e) {
      if (created) removeStray(fd);
      closeSync(fd);
      throw e;
    }
  } finally {
    if (dir.fd >= 0) closeSync(dir.fd);
  }
}

/** A file this call created somewhere it must not be: remove it again, if that name is still that file. */
function removeStray(fd: number): void {
  const where = PROC ? readlinkSync(`/proc/self/fd/${fd}`) : null;
  if (!where || where.endsWith(' (deleted)')) return;
  try {
    const a = fstatSync(fd);
    const b = lstatSync(where);
    if (a.dev === b.dev && a.ino === b.ino && a.size === 0) unlinkSync(where);
  } catch {
    /* gone already */
  }
}

/** Open, act, always close. */
export function withConfined<T>(workspace: string, p: unknown, mode: OpenMode, fn: (f: Opened) => T): T {
  const f = openConfined(workspace, p, mode);
  try {
    return fn(f);
  } finally {
    closeSync(f.fd);
  }
}

export const readContent = (fd: number): string => readFileSync(fd, 'utf8');

/** The entries of an opened folder: on Linux the descriptor's own folder, whatever its name now leads to. */
export const listEntries = (f: Opened): Dirent[] => readdirSync(PROC ? `/proc/self/fd/${f.fd}` : f.real, { withFileTypes: true });

/** Replace the whole content through the descriptor (positional writes: no shared file offset involved). */
export function replaceContent(fd: number, text: string): void {
  const buf = Buffer.from(text, 'utf8');
  ftruncateSync(fd, 0);
  let off = 0;
  while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off, off);
}
