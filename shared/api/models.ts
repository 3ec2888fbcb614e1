// Model connections: a real request to a provider, answered in words (Settings ▸ Models).
import { z } from 'zod';
import { method, strict } from './contract.js';

export const modelsMethods = {
  modelsTest: method(
    strict({
      provider: z.enum(['chat-completions', 'anthropic']),
      baseURL: z.string().url().max(2048),
      model: z.string().min(1).max(200),
      /** A key typed for this test only: used for the one request, never stored or logged. */
      key: z.string().max(8192).optional(),
      apiKeyEnv: z
        .string()
        .regex(/^[A-Za-z_][A-Za-z0-9_]*$/)
        .max(200)
        .optional(),
    }),
    strict({
      ok: z.boolean(),
      /** What the model answered (cut), when it answered. */
      reply: z.string().nullable(),
      /** Why it failed, in words, and the stable code. */
      error: strict({ code: z.string(), message: z.string() }).nullable(),
      ms: z.number(),
    }),
    'Send one short real request to a model and say what came back (or why nothing did).',
  ),
};
