// Provider keys for the desktop app: encrypted by the OS keychain (Electron safeStorage, injected as a
// cipher so this module stays electron-free) and kept as ciphertext in <dataDir>/keys.json (mode 0600).
// Never in SQLite, never in clear on disk, never logged. Implements AGENTS' KeyStore.
import { existsSync, readFileSync, writeFileSync, renameSync, chmodSync } from 'node:fs';
import { join } from 'node:path';
import type { KeyStore } from '../providers/keys.js';
import { ApiFailure, type Handlers } from '../api/dispatch.js';

export interface Cipher {
  available(): boolean;
  encrypt(plain: string): Buffer;
  decrypt(cipher: Buffer): string;
}

export interface KeyFileStore extends KeyStore {
  set(agent: string, key: string): void;
  delete(agent: string): void;
  has(agent: string): boolean;
}

export function createKeyFileStore(dataDir: string, cipher: Cipher): KeyFileStore {
  const file = join(dataDir, 'keys.json');
  const read = (): Record<string, string> => {
    if (!existsSync(file)) return {};
    try {
      const v = JSON.parse(readFileSync(file, 'utf8'));
      return v && typeof v === 'object' ? v : {};
    } catch {
      return {};
    }
  };
  const write = (all: Record<string, string>) => {
    const tmp = `${file}.tmp`;
    writeFileSync(tmp, JSON.stringify(all, null, 2), { mode: 0o600 });
    chmodSync(tmp, 0o600);
    renameSync(tmp, file);
  };
  return {
    get(agent) {
      const enc = read()[agent];
      if (!enc || !cipher.available()) return undefined;
      try {
        return cipher.decrypt(Buffer.from(enc, 'base64'));
      } catch {
        // A key encrypted under another OS account or keychain cannot be read: treat it as absent.
        return undefined;
      }
    },
    set(agent, key) {
      if (!cipher.available()) throw new Error('The OS keychain is not available; set the key in an environment variable instead.');
      write({ ...read(), [agent]: cipher.encrypt(key).toString('base64') });
    },
    delete(agent) {
      const all = read();
      delete all[agent];
      write(all);
    },
    has: (agent) => Boolean(read()[agent]),
  };
}

/** The keysStatus / keysSet handlers over a key store (registered by the Electron shell only). */
export function keysHandlers(store: KeyFileStore, cipher: Pick<Cipher, 'available'>, exists: (agent: string) => boolean | Promise<boolean>): Pick<Handlers, 'keysStatus' | 'keysSet'> {
  return {
    keysStatus: ({ agent }) => ({ agent, stored: store.has(agent), keychain: cipher.available() }),
    async keysSet({ agent, key }) {
      if (!(await exists(agent))) throw new ApiFailure('not_found', `No agent named ${agent}.`);
      if (key === null) store.delete(agent);
      else {
        if (!cipher.available()) throw new ApiFailure('keychain_unavailable', 'The OS keychain is not available here; name an environment variable in the profile instead.');
        store.set(agent, key);
      }
      return { agent, stored: store.has(agent), keychain: cipher.available() };
    },
  };
}
