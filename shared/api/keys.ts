// Provider keys for agents, kept by the desktop app in the OS keychain (Electron safeStorage). Owned by
// WINDOW. Only the Electron shell implements these (the browser host answers not_implemented: there, keys
// come from the environment variable a profile names). A key goes in and never comes back out.
import { z } from 'zod';
import { method } from './contract.js';
import { Name } from './common.js';

export const keysMethods = {
  keysStatus: method(z.object({ agent: Name }), z.object({ agent: Name, stored: z.boolean(), keychain: z.boolean() }), 'Whether a provider key is stored for an agent (never the key).'),
  keysSet: method(
    z.object({ agent: Name, key: z.string().min(1).max(8192).nullable() }),
    z.object({ agent: Name, stored: z.boolean(), keychain: z.boolean() }),
    "Store (or, with null, forget) an agent's provider key in the OS keychain.",
  ),
};
