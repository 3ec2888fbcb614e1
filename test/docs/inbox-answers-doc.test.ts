// docs/cli.md's inbox table against the one list of what each card accepts (shared/inbox/answers.ts), which
// the kernel enforces and the window and `nexus inbox` show: the page cannot promise an answer a card refuses.
import { describe, expect, it } from 'vitest';
import { CARD_CASES, docRow } from '../../shared/inbox/answers.js';
import { readDoc, sections, tableRows } from '../support/docs-markdown.js';

const inbox = sections(readDoc('cli.md'), 2).find((s) => s.title === 'nexus inbox')!.body;

describe('docs/cli.md: the inbox table names only the answers each card accepts', () => {
  it('has one row per card case, in order, each with exactly the commands that answer it', () => {
    const table = tableRows(inbox).filter((r) => r[0] === 'kind' || /^`(autonomy|orchestration|attention|question)`$/.test(r[0]!));
    expect(table[0]).toEqual(['kind', 'asked by', 'answered with']);
    expect(table.slice(1)).toEqual(CARD_CASES.map(docRow));
  });

  it('never offers retry for a failed delegated task', () => {
    const row = tableRows(inbox).find((r) => /delegated task/.test(r[1] ?? ''))!;
    expect(row[2]).not.toMatch(/retry/);
  });
});
