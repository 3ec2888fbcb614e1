// The control socket's per-launch credential: 32 random bytes written 0600 to `nexus.sock.token` in the data
// dir when the kernel starts its socket, read by the `nexus` command of the same person, removed at close.
//
// Why a file in the data dir (and not, say, $XDG_RUNTIME_DIR): the data dir is the one place that is private
// to the person by construction. It is created 0700, its socket, database and keys are already there, and agents'
// sandboxes hide the whole folder; so the credential is exactly as reachable as the socket it guards and follows
// --data-dir (two kernels never share one). An agent that can read this file could also read the database.
// Filesystem permissions alone do not separate an agent from the person (same user id): the sandbox does.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const CREDENTIAL_FILE = 'nexus.sock.token';
/** The hook's credential (DESIGN §7.3): it can only submit a connected client's tool use and read its answer.
 *  A client's hook reads it; the person's credential above is never handed to a client. */
export const HOOK_CREDENTIAL_FILE = 'nexus.hook.token';

export const credentialPath = (dataDir: string, file = CREDENTIAL_FILE) => join(dataDir, file);

/** Equal secrets, compared in constant time. Both sides are hashed first, so their lengths leak nothing. */
export function sameSecret(given: unknown, expected: string): boolean {
  if (typeof given !== 'string' || !given || !expected) return false;
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/** A fresh random secret, URL-safe. */
export const newSecret = (): string => randomBytes(32).toString('base64url');

/**
 * Write a new credential for this launch. Created 0600 under a temporary name, then renamed over the old
 * one, so no reader ever sees a half-written or world-readable file.
 */
export function writeCredential(dataDir: string, file = CREDENTIAL_FILE): string {
  const secret = newSecret();
  const path = credentialPath(dataDir, file);
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(tmp, `${secret}\n`, { mode: 0o600, flag: 'wx' });
  try {
    chmodSync(tmp, 0o600); // umask can only remove bits; say the mode outright anyway
    renameSync(tmp, path);
  } catch (e) {
    try {
      unlinkSync(tmp);
    } catch {
      /* already gone */
    }
    throw e;
  }
  return secret;
}

/** The credential of the kernel now serving this data dir; throws (ENOENT, EACCES) when it cannot be read. */
export const readCredential = (dataDir: string, file = CREDENTIAL_FILE): string => readFileSync(credentialPath(dataDir, file), 'utf8').trim();

/** Remove the credential at close, unless another kernel has since written its own. */
export function removeCredential(dataDir: string, secret: string, file = CREDENTIAL_FILE): void {
  try {
    if (sameSecret(readCredential(dataDir, file), secret)) unlinkSync(credentialPath(dataDir, file));
  } catch {
    /* already gone */
  }
}
