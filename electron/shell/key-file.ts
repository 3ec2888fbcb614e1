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
  /** Linux only: safeStorage.getSelectedStorageBackend() ('gnome_libsecret', 'kwallet6', 'basic_text', …). */
  backend?(): string;
}

export interface KeychainState {
  /** Keys can be stored (encrypted by the OS keychain). */
  available: boolean;
  /** One sentence: where keys live, or why none can be stored. */
  note: string;
}

/**
 * Whether the OS keychain can protect keys here. On Linux without a running keyring (GNOME Keyring, KWallet)
 * Electron falls back to 'basic_text': "encryption" with a password that is the same on every machine, i.e. a
 * key would sit on disk as good as in clear. NEXUS refuses that and says so.
 */
export function keychainState(cipher: Cipher, dataDir: string): KeychainState {
  const env = "name an environment variable in the agent's profile (apiKeyEnv) and start NEXUS with it set";
  if (cipher.available() && cipher.backend?.() === 'basic_text') {
    return {
      available: false,
      note: `No OS keyring (GNOME Keyring or KWallet) is running, so a stored key would only be obscured with a fixed password; NEXUS stores no keys here: ${env}, or start a keyring and reopen NEXUS.`,
    };
  }
  if (!cipher.available()) return { available: false, note: `The OS keychain is not available, so NEXUS stores no keys: ${env}.` };
  const backend = cipher.backend?.();
  return {
    available: true,
    note: `Keys are encrypted by the OS keychain${backend && backend !== 'unknown' ? ` (${backend})` : ''} and kept only as ciphertext in ${join(dataDir, 'keys.json')}.`,
  };
}

export interface KeyFileStore extends KeyStore {
  set(agent: string, key: string): void;
  delete(agent: string): void;
  has(agent: string): boolean;
}

export function createKeyFileStore(dataDir: string, cipher: Cipher): KeyFileStore {
  const file = join(dataDir, 'keys.json');
  const usable = () => keychainState(cipher, dataDir).available;
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
  const get = (agent: string): string | undefined => {
    const enc = read()[agent];
    if (!enc || !usable()) return undefined;
    try {
      return cipher.decrypt(Buffer.from(enc, 'base64'));
    } catch {
      // A key encrypted under another OS account or keychain cannot be read: treat it as absent.
      return undefined;
    }
  };
  return {
    get,
    set(agent, key) {
      if (!usable()) throw new Error(keychainState(cipher, dataDir).note);
      write({ ...read(), [agent]: cipher.encrypt(key).toString('base64') });
    },
    delete(agent) {
      const all = read();
      delete all[agent];
      write(all);
    },
    // "Set" means usable: a key encrypted under another account, another keychain or a lost keyring does not
    // decrypt, and reporting it as stored would hide that the agent has no key.
    has: (agent) => get(agent) !== undefined,
  };
}

/** The keysStatus / keysSet handlers over a key store (registered by the Electron shell only). */
export function keysHandlers(
  store: KeyFileStore,
  keychain: () => KeychainState,
  exists: (agent: string) => boolean | Promise<boolean>,
): Pick<Handlers, 'keysStatus' | 'keysSet'> {
  const status = (agent: string) => {
    const k = keychain();
    return { agent, stored: store.has(agent), keychain: k.available, keychain_note: k.note };
  };
  return {
    keysStatus: ({ agent }) => status(agent),
    async keysSet({ agent, key }) {
      if (!(await exists(agent))) throw new ApiFailure('not_found', `No agent named ${agent}.`);
      if (key === null) store.delete(agent);
      else {
        const k = keychain();
        if (!k.available) throw new ApiFailure('keychain_unavailable', k.note);
        store.set(agent, key);
      }
      return status(agent);
    },
  };
}
