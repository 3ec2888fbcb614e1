// The text of method-names.ts, made from the method table: the contract is the one source of the names, and
// method-names.ts is its zod-free copy (the preload, the web bridge and the CLI's client commands send names
// without loading zod). `npx tsx scripts/method-names.ts` writes it; method-names.test.ts fails when it is stale.
import { methods } from './index.js';

export function methodNamesSource(): string {
  return [
    '// MADE FROM THE CONTRACT by `npx tsx scripts/method-names.ts` (shared/api/method-names-source.ts): do not edit.',
    "// Every API method's name, in the order of the method table (index.ts), without the schemas: a caller that",
    "// only sends names (the preload, the web bridge, the CLI's client commands) loads this and no zod.",
    'export const METHOD_NAMES = [',
    ...Object.keys(methods).map((name) => `  '${name}',`),
    '] as const;',
    '',
    'export type ListedMethodName = (typeof METHOD_NAMES)[number];',
    '',
  ].join('\n');
}
