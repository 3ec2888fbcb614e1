// Where a data dir's control socket lives. Its own module because the CLI needs the path and nothing else of
// the door (the door's module brings the API's schemas, which a client command has no use for).
import { createHash } from 'node:crypto';
import { join } from 'node:path';

export const SOCKET_FILE = 'nexus.sock';

/** The socket of a data dir: `nexus.sock` inside it; on Windows a named pipe derived from the dir. */
export const socketPath = (dataDir: string, platform: NodeJS.Platform = process.platform): string =>
  platform === 'win32' ? `\\\\.\\pipe\\nexus-${createHash('sha256').update(dataDir.toLowerCase()).digest('hex').slice(0, 24)}` : join(dataDir, SOCKET_FILE);
