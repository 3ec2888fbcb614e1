// Handlers for methods whose module a NEXUS was built without (a bare kernel in tests, keys without the desktop
// app's keychain): each answers one clear sentence, so the handler table stays complete.
import { ApiFailure, type Handlers } from './dispatch.js';
import type { MethodName } from '../../shared/api/index.js';

export function unavailable<K extends MethodName>(names: readonly K[], code: string, sentence: string): Pick<Handlers, K> {
  const refuse = () => {
    throw new ApiFailure(code, sentence);
  };
  // Every name gets the same refusing function; its type is the handler's (it never returns).
  return Object.fromEntries(names.map((n) => [n, refuse])) as unknown as Pick<Handlers, K>;
}
