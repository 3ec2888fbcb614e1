// A runner's id: a stable hash of the server's config name (the key in `mcpServers`), 12 lowercase hex —
// the suffix of a qualified callable `NAME__<id>` (DESIGN §2 "Tool names"; shared/rules resolves it).
import { createHash } from 'node:crypto';

export const runnerId = (serverName: string): string => createHash('sha256').update(serverName, 'utf8').digest('hex').slice(0, 12);

export const qualifiedName = (tool: string, runner: string): string => `${tool}__${runner}`;
