// Where a data dir's control socket lives. Its own module because the CLI needs the path and nothing else of
// the door (the door's module brings the API's schemas, which a client command has no use for).
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
