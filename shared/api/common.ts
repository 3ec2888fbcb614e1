// zod schemas for the domain types in shared/types.ts. Pure.
import { z } from 'zod';
import { strict } from './contract.js';
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

export const ToolResult = strict({
  content: z.array(strict({ type: z.literal('text'), text: z.string() })),
  structuredContent: z.record(z.string(), z.unknown()).optional(),
  isError: z.boolean().optional(),
});

export const RuleIssue = strict({ index: z.number().int().nullable(), key: z.string().optional(), message: z.string() });
export const RuleWarning = strict({ index: z.number().int(), kind: z.string(), message: z.string() });

/** The most items one page of a paged list carries. */
export const PAGE_MAX = 500;
/**
 * Where a page of a list starts: after the item `cursor` (what the previous page gave as its next cursor;
 * paging is keyset, so items added meanwhile never shift a page), and at most `limit` items.
 */
export const PageInput = {
  cursor: z.string().min(1).max(200).optional(),
  limit: z.number().int().min(1).max(PAGE_MAX).optional(),
};
/** One page of a list; `next_cursor` is null on the last page. */
export const pageOf = <T extends z.ZodTypeAny>(item: T) => strict({ items: z.array(item), next_cursor: z.string().nullable() });
