// Provider keys and agents' MCP secrets through the OS keychain (Electron's safeStorage, which main.ts hands
// in so this file stays electron-free): the cipher, and the KeysModule createNexus is given.
import type { KeysModule } from '../app.js';
import { createKeyFileStore, keychainState, keysHandlers, type Cipher } from './key-file.js';
import { log } from '../log.js';

/** The part of Electron's safeStorage the keychain uses. */
export interface SafeStoragePort {
  isEncryptionAvailable(): boolean;
  encryptString(plain: string): Buffer;
  decryptString(encrypted: Buffer): string;
  getSelectedStorageBackend(): string;
}

/** The OS keychain (safeStorage): encrypts provider keys and agents' MCP secrets at rest. */
export const keychainCipher = (safeStorage: SafeStoragePort): Cipher => ({
  available: () => safeStorage.isEncryptionAvailable(),
  encrypt: (s) => safeStorage.encryptString(s),
  decrypt: (b) => safeStorage.decryptString(b),
  // Linux: 'basic_text' means no keyring is running (key-file.ts refuses to store keys then).
  backend: process.platform === 'linux' ? () => safeStorage.getSelectedStorageBackend() : undefined,
});

/** Provider keys through the OS keychain: the KeyStore AGENTS' providers read, and keysStatus/keysSet. */
export const desktopKeys =
  (safeStorage: SafeStoragePort) =>
  (dataDir: string): KeysModule => {
    const cipher = keychainCipher(safeStorage);
    const store = createKeyFileStore(dataDir, cipher);
    const keychain = () => keychainState(cipher, dataDir);
    if (!keychain().available) log.warn(keychain().note);
    return { store, handlers: (exists) => keysHandlers(store, keychain, exists) };
  };
