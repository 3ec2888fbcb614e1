// docs/entitlement.md's self-signed recipe, run as written: openssl makes the key pair, the page's script
// signs with jose, a real `nexus serve` started with NEXUS_ENTITLEMENT_PUBLIC_KEY accepts the import and
// reports what the page says. A token signed with another key is refused by that same kernel.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../support/serve.js';
import { ROOT } from '../support/docs-markdown.js';
import { fences, readDoc, sections } from '../support/docs-markdown.js';
import { commandLines, shell, type Shell } from '../support/docs-shell.js';

const page = readDoc('entitlement.md');
const recipe = sections(page, 2).find((s) => s.title.startsWith('3. Self-signed'))!.body;
const blocks = fences(recipe);
let sh: Shell;

beforeAll(() => {
  build();
  sh = shell();
}, 60_000);
afterAll(async () => {
  await sh?.close();
});

describe('docs/entitlement.md: the self-signed recipe works as written', () => {
  it("key pair, the page's signing script, serve with the public key, import: entitled", async () => {
    const [keys, script, run] = [blocks[0], blocks[1], blocks[2]];
    expect([keys.lang, script.lang, run.lang]).toEqual(['sh', 'js', 'sh']);
    const name = /Save this as `([^`]+)`/.exec(recipe)![1];
    writeFileSync(join(sh.dir, name), script.body);
    const outputs: string[] = [];
    for (const l of [...commandLines(keys.body), ...commandLines(run.body)]) {
      const r = await sh.line(l);
      expect(r.code, `${l}\n${r.err}`).toBe(0);
      outputs.push(r.out);
    }
    const imported = outputs.at(-1)!;
    for (const said of [...recipe.matchAll(/prints `([^`]+)` and `([^`]+)`/g)].flatMap((m) => [m[1], m[2]])) expect(imported).toContain(said);
    const show = await sh.line('nexus entitlements show --json');
    expect(JSON.parse(show.out)).toMatchObject({
      entitled: true,
      status: 'valid',
      entitlements: ['nexus.orchestration'],
      subject: 'me@localhost',
      source: 'import',
    });
  }, 60_000);

  it('a token signed by another key is refused by that kernel, and the valid one is kept', async () => {
    const other = await sh.line(
      'openssl genpkey -algorithm ed25519 -out other.pem && sed "s/entitlement-key.pem/other.pem/" sign-entitlement.mjs > sign-other.mjs && node sign-other.mjs > other.jwt',
    );
    expect(other.code, other.err).toBe(0);
    const r = await sh.line('nexus entitlements import other.jwt');
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/signature|verif/i);
    expect(JSON.parse((await sh.line('nexus entitlements show --json')).out)).toMatchObject({ entitled: true, status: 'valid' });
  }, 60_000);

  it("the checkout's .gitignore covers every file the recipe writes, the private key first", () => {
    const written = [...new Set([...recipe.matchAll(/-out (\S+)|> (\S+)|Save this as `([^`]+)`/g)].map((m) => m[1] ?? m[2] ?? m[3]))];
    expect(written).toEqual(expect.arrayContaining(['entitlement-key.pem', 'entitlement-key.pub.pem', 'entitlement.jwt', 'sign-entitlement.mjs']));
    const ignored = execFileSync('git', ['check-ignore', ...written], { cwd: ROOT, encoding: 'utf8' })
      .trim()
      .split('\n');
    expect(ignored.sort()).toEqual(written.sort());
  });
});
