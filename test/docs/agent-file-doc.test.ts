// docs/agent-file.md against the zod schema the API validates an agent file with (shared/api/agents.ts):
// every field the schema has is on the page and every field on the page is in the schema — except rows the
// page marks "(being added)", which may be absent until that work lands. Hook events and hook fields
// are the kernel's validator's (electron/agents/profiles.ts).
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentProfileInput } from '../../shared/api/agents.js';
import { validateHooks } from '../../electron/agents/profiles.js';
import { bodyRows, fences, readDoc, sections, unquote } from '../support/docs-markdown.js';

const page = readDoc('agent-file.md');
const PENDING = '(being added)';

/** Dotted field paths of a zod object: records contribute `NAME`. */
function fieldPaths(schema: z.ZodType, prefix = ''): string[] {
  let s: z.ZodType = schema;
  while (s instanceof z.ZodOptional || s instanceof z.ZodDefault || s instanceof z.ZodNullable) s = (s as z.ZodOptional<z.ZodType>).unwrap();
  if (s instanceof z.ZodObject) {
    return Object.entries(s.shape as Record<string, z.ZodType>).flatMap(([k, v]) => [`${prefix}${k}`, ...fieldPaths(v, `${prefix}${k}.`)]);
  }
  if (s instanceof z.ZodRecord) return fieldPaths(s.valueType as z.ZodType, `${prefix}NAME.`);
  return [];
}

describe('docs/agent-file.md', () => {
  const rows = bodyRows(sections(page, 2).find((s) => s.title === 'Fields')!.body);
  const documented = rows.map((r) => unquote(r[0]));
  const pending = rows.filter((r) => r[3].includes(PENDING)).map((r) => unquote(r[0]));
  const schema = fieldPaths(AgentProfileInput);

  it('every field of the schema is documented', () => {
    expect(schema.filter((f) => !documented.includes(f))).toEqual([]);
  });
  it('every documented field is in the schema, unless marked as being added', () => {
    expect(documented.filter((f) => !schema.includes(f) && !pending.includes(f))).toEqual([]);
  });
  it('a field marked as being added that the schema now has: remove the mark (check its row first)', () => {
    expect(pending.filter((f) => schema.includes(f))).toEqual([]);
  });
  it("required fields are the schema's required fields", () => {
    const required = rows.filter((r) => r[2] === 'required').map((r) => unquote(r[0]));
    const shape = AgentProfileInput.shape as Record<string, z.ZodType>;
    const top = Object.entries(shape)
      .filter(([, v]) => !v.safeParse(undefined).success)
      .map(([k]) => k);
    const model = Object.entries((shape.model as z.ZodObject).shape as Record<string, z.ZodType>)
      .filter(([, v]) => !v.safeParse(undefined).success)
      .map(([k]) => `model.${k}`);
    expect(required.sort()).toEqual([...top, ...model].sort());
  });
  it("the enum values on the page are the schema's", () => {
    const cell = (f: string) => rows.find((r) => unquote(r[0]) === f)![1];
    expect(cell('model.provider')).toBe(
      AgentProfileInput.shape.model.shape.provider.options
        .map((o) => `\`${o}\``)
        .join(' \\| ')
        .replace(/\\\|/g, '|'),
    );
    expect(cell('mode')).toBe(AgentProfileInput.shape.mode.options.map((o) => `\`${o}\``).join(' | '));
  });
  it('the example files on the page are accepted', () => {
    const [full, hooks] = fences(page).filter((f) => f.lang === 'json');
    expect(AgentProfileInput.safeParse(JSON.parse(full.body)).error?.issues ?? []).toEqual([]);
    expect(() => validateHooks(JSON.parse(full.body).lifecycle_hooks)).not.toThrow();
    expect(() => validateHooks(JSON.parse(hooks.body).lifecycle_hooks)).not.toThrow();
  });
  it("hook events and hook fields are the validator's", () => {
    const [events, fields] = [sections(page, 2).find((s) => s.title === 'Lifecycle hooks')!.body].map((b) => {
      const tables = b.split(/\n\n/).filter((t) => t.trim().startsWith('|'));
      return tables.map((t) => bodyRows(t).map((r) => unquote(r[0])));
    })[0];
    for (const e of events) expect(() => validateHooks({ [e]: [] }), e).not.toThrow();
    expect(() => validateHooks({ stop_hook: [] })).toThrow(/unknown event/);
    expect(fields).toEqual(['tool', 'input', 'timeout_s']);
    expect(validateHooks({ stop: [{ tool: 'bash' }] }).stop![0]).toEqual({ tool: 'bash', input: {} });
    expect(() => validateHooks({ stop: [{ tool: 'bash', timeout_s: 0 }] })).toThrow(/positive/);
  });
});

describe('docs/agent-file.md: the built-in tools', () => {
  it('are the tools a model can be offered, and the agent editor suggests the same list', async () => {
    const { readFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { createNexus } = await import('../../electron/app.js');
    const { world } = await import('../support/world.js');
    const { INTERNAL_TOOLS } = await import('../../electron/agents/internal-tools.js');
    const { ROOT } = await import('../support/docs-markdown.js');
    const listed = /Built-in tools: (.*)\./.exec(page)![1].split(', ').map(unquote);
    const w = world();
    const nexus = await createNexus({ dataDir: join(w.dir('agent-doc'), 'data') });
    w.defer(() => nexus.close());
    try {
      const offered = nexus.kernel.tools
        .list()
        .map((t) => t.name)
        .filter((n) => !INTERNAL_TOOLS.includes(n));
      expect([...listed].sort()).toEqual([...offered].sort());
    } finally {
      await w.cleanup();
    }
    const editor = readFileSync(join(ROOT, 'renderer', 'src', 'views', 'agents', 'AgentEditor.tsx'), 'utf8');
    expect(/Tools \(comma-separated[^]*?placeholder="([^"]+)"/.exec(editor)![1].split(', ')).toEqual(listed);
  });
});
