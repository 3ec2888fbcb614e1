// Provider keys for agents, kept by the desktop app in the OS keychain (Electron safeStorage). Owned by
// WINDOW. Only the Electron shell implements these (the browser host answers not_implemented: there, keys
// come from the environment variable a profile names). A key goes in and never comes back out.
import { z } from 'zod';
import { method, readMethod, strict } from './contract.js';
import { Name } from './common.js';

// stored: a key is stored AND decrypts. keychain_note: one sentence on where keys live or why none can be kept.
const KeyStatus = strict({ agent: Name, stored: z.boolean(), keychain: z.boolean(), keychain_note: z.string().max(500).optional() });

export const keysMethods = {
  keysStatus: readMethod(strict({ agent: Name }), KeyStatus, 'Whether a provider key is stored for an agent (never the key).'),
  keysSet: method(
    strict({ agent: Name, key: z.string().min(1).max(8192).nullable() }),
    KeyStatus,
    "Store (or, with null, forget) an agent's provider key in the OS keychain.",
  ),
};
