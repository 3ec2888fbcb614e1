// The approval rules a run is created with, validated and compiled once when the run is created.
import { compileRules, validateRules, type CompiledRules } from '../../shared/rules/index.js';
import { KernelError } from './errors.js';
import type { CreateRunOptions } from './types.js';

/** Validate and compile the rules a run is created with (already compiled rules are taken as they are). */
export function compileRunRules(rules: CreateRunOptions['rules']): CompiledRules {
  if (rules && !Array.isArray(rules) && (rules as CompiledRules).kind === 'nexus.compiled-rules') return rules as CompiledRules;
  const v = validateRules(rules ?? []);
  if (!v.ok) throw new KernelError('invalid_rules', `The approval rules are invalid: ${v.errors.map((e) => e.message).join('; ')}`, v.errors);
  return compileRules(v.rules);
}
