// The sandbox beside a real peer: @anthropic-ai/sandbox-runtime (Claude Code's sandbox, an npm package) confining
// the same `true` with the same policy: its workspace writable, the data dir unreadable, no network. Its
// Linux backend is bubblewrap too (plus a ripgrep scan of deny paths and its proxies), so the figure is what
// each adds around the same namespaces. It needs ripgrep: `rg` on PATH, else the one Claude Code's agent SDK ships.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { errorMessage } from '../shared/errors.js';

const VENDORED_RG = join(import.meta.dirname, '..', 'node_modules/@anthropic-ai/claude-agent-sdk/vendor/ripgrep', `${process.arch}-linux`, 'rg');

function ripgrep(): string | null {
  try {
    execFileSync('rg', ['--version'], { stdio: 'ignore' });
    return 'rg';
  } catch {
    return existsSync(VENDORED_RG) ? VENDORED_RG : null;
  }
}

export interface PeerSandbox {
  /** Run `true` in the peer's sandbox and wait for it to end; rejects when it did not exit 0. */
  run(): Promise<void>;
  close(): Promise<void>;
}

/** The peer set up for this workspace and hidden dir, or why it cannot be. */
export async function peerSandbox(ws: string, hidden: string): Promise<PeerSandbox | string> {
  const rg = ripgrep();
  if (!rg) return 'no ripgrep (rg) for @anthropic-ai/sandbox-runtime';
  const { SandboxManager } = await import('@anthropic-ai/sandbox-runtime');
  try {
    await SandboxManager.initialize({
      ripgrep: { command: rg },
      network: { allowedDomains: [], deniedDomains: [] },
      filesystem: { denyRead: [hidden], allowWrite: [ws], denyWrite: [] },
    });
  } catch (e) {
    return `@anthropic-ai/sandbox-runtime would not start: ${errorMessage(e).split('\n')[0]}`;
  }
  return {
    async run() {
      const wrapped = await SandboxManager.wrapWithSandbox('true');
      await new Promise<void>((resolve, reject) => {
        const c = spawn(wrapped, { shell: true, cwd: ws, stdio: ['ignore', 'pipe', 'pipe'] });
        let err = '';
        c.stderr.on('data', (d: Buffer) => (err += d.toString()));
        c.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`the peer's sandboxed \`true\` exited ${code}: ${err.trim()}`))));
      });
    },
    close: () => SandboxManager.reset(),
  };
}
