// Where a data dir's control socket lives, and what connecting to it says when no kernel is there. Its own
// module because the CLI and the clients' hook need that and nothing else of the door (the door's module brings
// the API's schemas, which a client command has no use for; the hook's bundle stays Node built-ins only).
import { join } from 'node:path';

export const SOCKET_FILE = 'nexus.sock';

/**
 * The socket of a data dir: `nexus.sock` inside it; on Windows a named pipe derived from the dir. node:crypto
 * is loaded only for the pipe's name: loading it costs a client command several ms at start, on every platform.
 */
export const socketPath = (dataDir: string, platform: NodeJS.Platform = process.platform): string =>
  platform === 'win32'
    ? `\\\\.\\pipe\\nexus-${process.getBuiltinModule('node:crypto').createHash('sha256').update(dataDir.toLowerCase()).digest('hex').slice(0, 24)}`
    : join(dataDir, SOCKET_FILE);

/**
 * Connecting failed because no kernel listens there: nothing at the path, a socket nobody serves, something that
 * is not a socket, or a data dir that is gone with a file left in its place (a client's sandbox masks a hidden
 * path that way). Any other error is a real failure of the socket and is reported as such.
 */
export const noKernelThere = (e: NodeJS.ErrnoException): boolean =>
  e.code === 'ENOENT' || e.code === 'ECONNREFUSED' || e.code === 'ENOTSOCK' || e.code === 'ENOTDIR';
