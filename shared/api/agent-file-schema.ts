// The agent file's JSON Schema, generated from the zod schema the API validates it with (AgentProfileInput),
// so an editor can check a file as it is typed. docs/agent-file.schema.json is this, committed; the test
// test/docs/agent-file-schema.test.ts keeps the two equal. Pure.
import { z } from 'zod';
import { AgentProfileInput } from './agents.js';

export const AGENT_FILE_SCHEMA_ID = 'https://nexus.app/schemas/agent-file.schema.json';

/** approval_rules and lifecycle_hooks are checked by the rule language's own validator: the schema says "any". */
export function agentFileJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(AgentProfileInput, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' });
  return {
    ...schema,
    $id: AGENT_FILE_SCHEMA_ID,
    title: 'NEXUS agent file',
    description: 'An agent profile as `nexus agents add FILE` reads it (docs/agent-file.md).',
  };
}
