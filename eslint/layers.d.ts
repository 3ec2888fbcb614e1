// Types of eslint/layers.js for the tests that import it.
import type { Rule } from 'eslint';
declare const rule: Rule.RuleModule;
export default rule;
/** [name, test on the repo-relative path, the layers it may import], lowest first. */
export const LAYERS: ReadonlyArray<readonly [string, (path: string) => boolean, readonly string[]]>;
export const LAYER_NAMES: Readonly<Record<string, string>>;
export function layerTable(): string;
export function layerOf(path: string): readonly [string, (path: string) => boolean, readonly string[]] | undefined;
