// Confinement: every path a file tool touches must stay inside the run's workspace. Paths are resolved
// against the workspace, then through realpath (so `..`, an absolute path elsewhere and a symlink that leads
// out are all caught the same way). A path that does not exist yet is checked through its deepest existing
// ancestor; a dangling symlink on the way is refused (writing through it would create a file we cannot see).
import { lstatSync, mkdirSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { NexusError } from '../../../shared/errors.js';

export class ConfinementError extends NexusError {
  constructor(message: string) {
    super('outside_workspace', message);
  }
}

/** Make sure the workspace exists and return its realpath (the form confinement compares against). */
export function prepareWorkspace(dir: string): string {
  mkdirSync(dir, { recursive: true });
  return realpathSync(dir);
}

const inside = (root: string, p: string) => p === root || p.startsWith(root.endsWith(sep) ? root : root + sep);

/** The real absolute path `p` names inside `workspace` (a realpath), or a ConfinementError. */
export function confine(workspace: string, p: unknown): string {
  if (typeof p !== 'string' || p.length === 0) throw new ConfinementError('a path (non-empty text) is required');
  if (p.includes('\0')) throw new ConfinementError('a path may not contain NUL bytes');
  const root = realpathSync(workspace);
  const abs = isAbsolute(p) ? resolve(p) : resolve(root, p);
  const pending: string[] = [];
  let cur = abs;
  let real: string;
  for (;;) {
    try {
      real = realpathSync(cur);
      break;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      // EINVAL: a name realpath saw as a link was something else by the time it read the link.
      if (code === 'EINVAL') throw new ConfinementError(`${p} changed while it was being checked; refused`);
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw e;
      let isLink = false;
      try {
        isLink = lstatSync(cur).isSymbolicLink();
      } catch {
        /* does not exist at all: fine, it may be created */
      }
      if (isLink) throw new ConfinementError(`${p} goes through a symlink that leads nowhere (${inside(root, cur) ? display(root, cur) : cur}); refused`);
      const parent = dirname(cur);
      if (parent === cur) throw new ConfinementError(`${p} does not resolve`);
      pending.unshift(basename(cur));
      cur = parent;
    }
  }
  const final = pending.length ? join(real, ...pending) : real;
  if (!inside(root, final)) {
    // Only paths outside are named: the model reads this, and the workspace's own location is none of its business.
    throw new ConfinementError(`${p} is outside the workspace${final !== abs ? ` (it resolves to ${final})` : ''}; refused`);
  }
  return final;
}

/** How a confined path is shown to people: relative to the workspace, `.` for the root. */
export function display(workspace: string, real: string): string {
  const rel = relative(workspace, real);
  return rel === '' ? '.' : rel;
}
