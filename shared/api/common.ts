// zod schemas for the domain types in shared/types.ts. Pure.
import { z } from 'zod';
import { MODES, ORIGINS, ROW_STATES, RUN_STATUSES, ORCHESTRATION_CODES } from '../types.js';

export const Mode = z.enum(MODES);
export const Origin = z.enum(ORIGINS);
export const RowState = z.enum(ROW_STATES);
export const RunStatus = z.enum(RUN_STATUSES);
export const OrchestrationCode = z.enum(ORCHESTRATION_CODES);
export const Id = z.string().min(1).max(200);
export const Name = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, 'a name is letters, digits, _ . - (starting with a letter or digit)');

export const ToolResult = z.object({
  content: z.array(z.object({ type: z.literal('text'), text: z.string() })),
  structuredContent: z.record(z.string(), z.unknown()).optional(),
  isError: z.boolean().optional(),
});

export const RuleIssue = z.object({ index: z.number().int().nullable(), key: z.string().optional(), message: z.string() });
export const RuleWarning = z.object({ index: z.number().int(), kind: z.string(), message: z.string() });
