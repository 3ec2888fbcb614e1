import { describe, it, expect, afterEach } from 'vitest';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createKeyFileStore, keychainState, keysHandlers, type Cipher } from './key-file.js';
import { world } from '../../test/support/world.js';

// A reversible stand-in for safeStorage (XOR with a fixed pad): enough to show nothing is written in clear.
const xor: Cipher = {
  available: () => true,
  encrypt: (s) => Buffer.from(Buffer.from(s).map((b) => b ^ 0x5a)),
  decrypt: (b) => Buffer.from(b.map((x) => x ^ 0x5a)).toString(),
};
let w = world();
afterEach(async () => {
  await w.cleanup();
  w = world();
});

describe('key file store (safeStorage-backed KeyStore)', () => {
  it('stores ciphertext only, in a 0600 file, and reads it back per agent', () => {
    const dir = w.dir('keys');
    const store = createKeyFileStore(dir, xor);
    store.set('builder', 'sk-secret-123456');
    expect(store.get('builder')).toBe('sk-secret-123456');
    expect(store.get('planner')).toBeUndefined();
    const raw = readFileSync(join(dir, 'keys.json'), 'utf8');
    expect(raw).not.toContain('sk-secret');
    expect(statSync(join(dir, 'keys.json')).mode & 0o777).toBe(0o600);
    store.delete('builder');
    expect(store.has('builder')).toBe(false);
  });

  it('refuses to store a key when the OS keychain is unavailable, and reads nothing then', () => {
    const dir = w.dir('keys');
    const store = createKeyFileStore(dir, { ...xor, available: () => false });
    expect(() => store.set('a', 'k')).toThrow(/keychain/);
    expect(store.get('a')).toBeUndefined();
  });
});

describe('keysStatus / keysSet handlers', () => {
  it('store a key for an existing agent, report only whether one is stored, forget it with null', async () => {
    const dir = w.dir('keys');
    const store = createKeyFileStore(dir, xor);
    const h = keysHandlers(
      store,
      () => keychainState(xor, dir),
      (a) => a === 'builder',
    );
    const ctx = { door: 'ipc' as const };
    expect(await h.keysSet({ agent: 'builder', key: 'sk-live-abcdef' }, ctx)).toEqual({
      agent: 'builder',
      stored: true,
      keychain: true,
      keychain_note: expect.stringContaining('ciphertext'),
    });
    expect(store.get('builder')).toBe('sk-live-abcdef');
    expect(JSON.stringify(await h.keysStatus({ agent: 'builder' }, ctx))).not.toContain('sk-live');
    await expect(h.keysSet({ agent: 'ghost', key: 'k' }, ctx)).rejects.toMatchObject({ code: 'not_found' });
    expect(await h.keysSet({ agent: 'builder', key: null }, ctx)).toMatchObject({ stored: false });
  });
});

describe('what "stored" and "keychain" mean', () => {
  it('a key that does not decrypt (another account, another keychain) is reported as not stored', async () => {
    const dir = w.dir('keys');
    createKeyFileStore(dir, xor).set('builder', 'sk-secret-123456');
    const other: Cipher = {
      ...xor,
      decrypt: () => {
        throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.');
      },
    };
    const store = createKeyFileStore(dir, other);
    expect(store.has('builder')).toBe(false);
    const h = keysHandlers(
      store,
      () => keychainState(other, dir),
      () => true,
    );
    expect(await h.keysStatus({ agent: 'builder' }, { door: 'ipc' })).toMatchObject({ stored: false, keychain: true });
  });

  it("Linux without a keyring (safeStorage's basic_text): no key is stored, and the status says why and what to do", async () => {
    const dir = w.dir('keys');
    const basic: Cipher = { ...xor, backend: () => 'basic_text' };
    const state = keychainState(basic, dir);
    expect(state.available).toBe(false);
    expect(state.note).toMatch(/No OS keyring .* is running.*NEXUS stores no keys here: name an environment variable/);
    const store = createKeyFileStore(dir, basic);
    expect(() => store.set('a', 'k')).toThrow(/No OS keyring/);
    const h = keysHandlers(
      store,
      () => keychainState(basic, dir),
      () => true,
    );
    await expect(h.keysSet({ agent: 'a', key: 'sk-x' }, { door: 'ipc' })).rejects.toMatchObject({
      code: 'keychain_unavailable',
      message: expect.stringContaining('No OS keyring'),
    });
    expect(await h.keysStatus({ agent: 'a' }, { door: 'ipc' })).toEqual({ agent: 'a', stored: false, keychain: false, keychain_note: state.note });
  });

  it('a real keyring names its backend and where the ciphertext lives', () => {
    expect(keychainState({ ...xor, backend: () => 'gnome_libsecret' }, '/d').note).toBe(
      'Keys are encrypted by the OS keychain (gnome_libsecret) and kept only as ciphertext in /d/keys.json.',
    );
    expect(keychainState({ ...xor, available: () => false }, '/d')).toEqual({
      available: false,
      note: expect.stringMatching(/^The OS keychain is not available/),
    });
  });
});
