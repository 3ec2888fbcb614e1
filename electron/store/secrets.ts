// Secrets an agent profile carries (MCP servers' `env` values and `headers`) live HERE, never in SQLite:
// <dataDir>/secrets.json, mode 0600, written atomically. In the desktop app each value is encrypted by the OS
// keychain (Electron safeStorage, injected as a cipher so this module stays electron-free); headless
// (`nexus serve`) keeps them in clear in that 0600 file, readable by the owner alone. The database keeps only
// `{ "set": true }` where a value was: the file is the one place the value is.
import { chmodSync, closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { errorMessage } from '../../shared/errors.js';

export const SECRETS_FILE = 'secrets.json';

export interface SecretCipher {
  available(): boolean;
  encrypt(plain: string): Buffer;
  decrypt(cipher: Buffer): string;
}

export type SecretKind = 'env' | 'headers';
/** One agent's secrets: server -> env|headers -> name -> value. */
export type AgentSecrets = Record<string, Partial<Record<SecretKind, Record<string, string>>>>;
type Entry = { plain: string } | { enc: string };
// `desk`: the team desk's password (Settings ▸ Desk, deskJoin), sealed like every other value.
type FileShape = { version: 1; agents: Record<string, Record<string, Partial<Record<SecretKind, Record<string, Entry>>>>>; desk?: Entry };

export interface SecretStore {
  readonly path: string;
  /** Values are encrypted by the OS keychain (the desktop app); false: kept in clear in the 0600 file. */
  readonly encrypted: boolean;
  /** The agent's values; a value this process cannot decrypt (saved under another keychain) is left out and named in `unreadable`. */
  get(agent: string): { secrets: AgentSecrets; unreadable: string[] };
  /** Replace all of the agent's values (an empty set removes the agent's entry). */
  set(agent: string, secrets: AgentSecrets): void;
  delete(agent: string): void;
  /** The team desk's password (undefined: none stored, or it does not decrypt here). */
  getDesk(): string | undefined;
  /** Store (or, with null, forget) the team desk's password. */
  setDesk(password: string | null): void;
}

export class SecretFileError extends Error {}

const isEntry = (e: unknown): e is Entry =>
  typeof e === 'object' && e !== null && (('plain' in e && typeof e.plain === 'string') || ('enc' in e && typeof e.enc === 'string'));

export function createSecretStore(dataDir: string, cipher?: SecretCipher): SecretStore {
  const path = join(dataDir, SECRETS_FILE);
  const read = (): FileShape => {
    if (!existsSync(path)) return { version: 1, agents: {} };
    let v: unknown;
    try {
      v = JSON.parse(readFileSync(path, 'utf8'));
    } catch (e) {
      // Never "start empty" over a damaged file: saving would silently drop every stored secret.
      throw new SecretFileError(`${path} is not readable JSON (${errorMessage(e)}); fix or remove it`);
    }
    const agents = (v as FileShape | null)?.agents;
    if (!agents || typeof agents !== 'object') throw new SecretFileError(`${path} is not a NEXUS secrets file; fix or remove it`);
    const desk: unknown = v && typeof v === 'object' && 'desk' in v ? v.desk : undefined;
    return isEntry(desk) ? { version: 1, agents, desk } : { version: 1, agents };
  };
  const write = (all: FileShape) => {
    const tmp = `${path}.tmp`;
    const fd = openSync(tmp, 'w', 0o600);
    try {
      writeSync(fd, JSON.stringify(all, null, 2));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    chmodSync(tmp, 0o600);
    renameSync(tmp, path);
  };
  const seal = (value: string): Entry => (cipher?.available() ? { enc: cipher.encrypt(value).toString('base64') } : { plain: value });
  const open = (e: Entry): string | undefined => {
    if ('plain' in e && typeof e.plain === 'string') return e.plain;
    if ('enc' in e && typeof e.enc === 'string' && cipher?.available()) {
      try {
        return cipher.decrypt(Buffer.from(e.enc, 'base64'));
      } catch {
        return undefined;
      }
    }
    return undefined;
  };
  return {
    path,
    get encrypted() {
      return Boolean(cipher?.available());
    },
    get(agent) {
      const secrets: AgentSecrets = {};
      const unreadable: string[] = [];
      for (const [server, kinds] of Object.entries(read().agents[agent] ?? {})) {
        for (const kind of ['env', 'headers'] as const) {
          for (const [name, entry] of Object.entries(kinds[kind] ?? {})) {
            const v = open(entry);
            if (v === undefined) unreadable.push(`mcpServers.${server}.${kind}.${name}`);
            else ((secrets[server] ??= {})[kind] ??= {})[name] = v;
          }
        }
      }
      return { secrets, unreadable };
    },
    set(agent, secrets) {
      const all = read();
      const sealed: FileShape['agents'][string] = {};
      for (const [server, kinds] of Object.entries(secrets)) {
        for (const kind of ['env', 'headers'] as const) {
          for (const [name, value] of Object.entries(kinds[kind] ?? {})) ((sealed[server] ??= {})[kind] ??= {})[name] = seal(value);
        }
      }
      if (Object.keys(sealed).length) all.agents[agent] = sealed;
      else if (!(agent in all.agents)) return;
      else delete all.agents[agent];
      write(all);
    },
    delete(agent) {
      const all = read();
      if (!(agent in all.agents)) return;
      delete all.agents[agent];
      write(all);
    },
    getDesk() {
      const e = read().desk;
      return e ? open(e) : undefined;
    },
    setDesk(password) {
      const all = read();
      if (password === null) {
        if (!all.desk) return;
        delete all.desk;
      } else all.desk = seal(password);
      write(all);
    },
  };
}
