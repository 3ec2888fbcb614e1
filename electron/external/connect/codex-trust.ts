// Codex runs only hooks the person trusted: `codex app-server` lists each hook with its key and current hash
// (`hooks/list`), and a hook is trusted when config.toml records that hash under `[hooks.state."<key>"]`.
// NEXUS asks Codex itself for the hash rather than re-implementing how Codex computes it (a Codex update could
// change that, and a wrong hash would leave the hook skipped in silence).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, join } from 'node:path';
import { isNexusHook } from './hook-command.js';

/** The codex binary: --codex, NEXUS_CODEX_BIN, the @openai/codex installed with NEXUS (under nexusRoot), or `codex` on PATH. */
export function findCodex(explicit?: string, env: NodeJS.ProcessEnv = process.env, nexusRoot: string = process.cwd()): string | null {
  if (explicit) return existsSync(explicit) ? explicit : null;
  if (env.NEXUS_CODEX_BIN && existsSync(env.NEXUS_CODEX_BIN)) return env.NEXUS_CODEX_BIN;
  try {
    const req = createRequire(join(nexusRoot, 'package.json'));
    const js = req.resolve('@openai/codex/bin/codex.js');
    if (existsSync(js)) return js;
  } catch {
    /* not installed with NEXUS */
  }
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    const p = join(dir, 'codex');
    if (dir && existsSync(p)) return p;
  }
  return null;
}

/** Ask `codex app-server` for the key and hash of every NEXUS hook it sees in this CODEX_HOME. */
export function codexHookHashes(codex: string, codexHome: string, timeoutMs = 30_000): Promise<Record<string, string>> {
  return new Promise((resolve, reject) => {
    const isJs = codex.endsWith('.js');
    const child = spawn(isJs ? process.execPath : codex, [...(isJs ? [codex] : []), 'app-server'], {
      env: { ...process.env, CODEX_HOME: codexHome },
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    let buf = '';
    let done = false;
    const finish = (e: Error | null, v?: Record<string, string>) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      child.kill();
      if (e) reject(e);
      else resolve(v!);
    };
    const timer = setTimeout(() => finish(new Error('codex app-server did not list its hooks in time')), timeoutMs);
    const send = (m: unknown) => child.stdin.write(`${JSON.stringify(m)}\n`);
    child.on('error', (e) => finish(new Error(`could not start codex app-server: ${e.message}`)));
    child.on('exit', (code) => finish(new Error(`codex app-server exited (${code}) before listing its hooks`)));
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (d: string) => {
      buf += d;
      let nl: number;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        let m: {
          id?: number;
          result?: { data?: Array<{ hooks?: Array<{ key?: string; command?: string; currentHash?: string }> }> };
          error?: { message?: string };
        };
        try {
          m = JSON.parse(line);
        } catch {
          continue;
        }
        if (m.id === 1) {
          if (m.error) return finish(new Error(`codex app-server: ${m.error.message}`));
          send({ method: 'initialized' });
          send({ id: 2, method: 'hooks/list', params: { cwds: [codexHome] } });
        } else if (m.id === 2) {
          if (m.error) return finish(new Error(`codex app-server hooks/list: ${m.error.message}`));
          const out: Record<string, string> = {};
          for (const entry of m.result?.data ?? [])
            for (const h of entry.hooks ?? []) if (h.key && h.currentHash && isNexusHook(h.command)) out[h.key] = h.currentHash;
          finish(null, out);
        }
      }
    });
    send({ id: 1, method: 'initialize', params: { clientInfo: { name: 'nexus', version: '0.1.0' } } });
  });
}
