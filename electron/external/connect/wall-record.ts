// What `nexus connect` wrote into a client's settings beyond its hook (the client's wall), kept in the data dir
// so `disconnect` gives back exactly the user's prior values: `<dataDir>/connections/<client>-<hash>.json`.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, realpathSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

export const WallRecord = z.object({
  file: z.string(),
  /** The file's text before the first connect (null: there was none), kept only while the file is exactly as
   *  NEXUS left it; then disconnect restores it byte for byte. */
  before: z.string().nullable().optional(),
  /** The text connect wrote. */
  after: z.string(),
  /** Each key NEXUS set: whether it was there, and its value. */
  prior: z.array(z.object({ path: z.array(z.string()), had: z.boolean(), value: z.unknown().optional(), added: z.array(z.unknown()).optional() })),
});
export type WallRecord = z.infer<typeof WallRecord>;

const recordPath = (dataDir: string, client: string, file: string) =>
  join(dataDir, 'connections', `${client}-${createHash('sha256').update(file).digest('hex').slice(0, 16)}.json`);

/** The record, or null when there is none or it does not parse (then disconnect takes back only the hook). */
export function readWallRecord(dataDir: string, client: string, file: string): WallRecord | null {
  const p = recordPath(dataDir, client, file);
  if (!existsSync(p)) return null;
  try {
    const r = WallRecord.safeParse(JSON.parse(readFileSync(p, 'utf8')));
    return r.success && r.data.file === file ? r.data : null;
  } catch {
    return null;
  }
}

export function writeWallRecord(dataDir: string, client: string, rec: WallRecord): void {
  mkdirSync(join(dataDir, 'connections'), { recursive: true, mode: 0o700 });
  writeFileSync(recordPath(dataDir, client, rec.file), `${JSON.stringify(rec, null, 2)}\n`, { mode: 0o600 });
}

export function removeWallRecord(dataDir: string, client: string, file: string): void {
  try {
    unlinkSync(recordPath(dataDir, client, file));
  } catch {
    /* none */
  }
}

/** The data dir as NEXUS names it and, when a link leads there, its real path: both kept out of a client's reach. */
export function wallDirs(dataDir: string): string[] {
  try {
    const real = realpathSync(dataDir);
    return real === dataDir ? [dataDir] : [dataDir, real];
  } catch {
    return [dataDir];
  }
}
