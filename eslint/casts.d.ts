// Types of eslint/casts.js for the tests that import it.
import type { Rule } from 'eslint';
declare const rule: Rule.RuleModule;
export default rule;
export const ALLOWANCE_FILE: string;
export const EXEMPT: string[];
export function countCasts(source: string, file: string): Promise<number>;
