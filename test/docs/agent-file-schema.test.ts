// docs/agent-file.schema.json is the JSON Schema of the agent file, generated from the zod schema the API
// validates with. Regenerate after a change with: NEXUS_WRITE_SCHEMA=1 npx vitest run test/docs/agent-file-schema.test.ts
// (then prettier --write it: the comparison is of the JSON, not of its layout).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentFileJsonSchema } from '../../shared/api/agent-file-schema.js';
import { ROOT } from '../support/docs-markdown.js';

const FILE = join(ROOT, 'docs/agent-file.schema.json');
const text = `${JSON.stringify(agentFileJsonSchema(), null, 2)}\n`;
if (process.env.NEXUS_WRITE_SCHEMA === '1') writeFileSync(FILE, text);

describe('docs/agent-file.schema.json', () => {
  it('is what the zod schema generates', () => {
    expect(JSON.parse(readFileSync(FILE, 'utf8'))).toEqual(JSON.parse(text));
  });

  it('refuses unknown keys at the top and in model, as the API does', () => {
    const schema = JSON.parse(text) as { additionalProperties: unknown; properties: { model: { additionalProperties: unknown } } };
    expect(schema.additionalProperties).toBe(false);
    expect(schema.properties.model.additionalProperties).toBe(false);
  });
});
