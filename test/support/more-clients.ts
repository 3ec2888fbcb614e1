// The real Gemini CLI and OpenCode (pinned dev dependencies), offline, in a ClientWorld's fresh HOME and project:
// Gemini against the scripted Gemini server (GOOGLE_GEMINI_BASE_URL, an API key and `selectedType` in its user
// settings; telemetry and usage statistics off), OpenCode against the scripted Anthropic server through its
// bundled anthropic provider (autoupdate, sharing, model list, LSP downloads and default plugins off; the
// `@opencode-ai/plugin` package it would fetch from the npm registry is seeded from node_modules).
import { cpSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { run, type ClientWorld, type Run } from './clients.js';

const require_ = createRequire(import.meta.url);
const BASE_PATH = ['/usr/local/bin', '/usr/bin', '/bin', dirname(process.execPath)].join(':');

/** A package's folder (found on the resolution paths: some packages' `exports` hide their package.json). */
const pkgDir = (name: string): string | null => {
  for (const p of require_.resolve.paths(name) ?? []) if (existsSync(join(p, name, 'package.json'))) return join(p, name);
  return null;
};

export const geminiCommand = (): string[] | null => {
  const dir = pkgDir('@google/gemini-cli');
  return dir ? [process.execPath, join(dir, 'bundle', 'gemini.js')] : null;
};
export const opencodeCommand = (): string[] | null => {
  const dir = pkgDir('opencode-ai');
  const exe = dir ? join(dir, 'bin', 'opencode.exe') : null;
  return exe && existsSync(exe) ? [exe] : null;
};

export function gemini(w: ClientWorld, modelUrl: string, prompt = 'do it', args: string[] = []): Promise<Run> {
  const cmd = geminiCommand();
  if (!cmd) throw new Error('@google/gemini-cli is not installed (npm ci installs the pinned dev dependency).');
  mkdirSync(join(w.home, '.gemini'), { recursive: true });
  writeFileSync(
    join(w.home, '.gemini', 'settings.json'),
    JSON.stringify({ security: { auth: { selectedType: 'gemini-api-key' } }, privacy: { usageStatisticsEnabled: false }, telemetry: { enabled: false } }),
  );
  return run([...cmd, '-p', prompt, '--output-format', 'json', '--yolo', ...args], {
    cwd: w.project,
    env: {
      PATH: BASE_PATH,
      HOME: w.home,
      LANG: 'C.UTF-8',
      GEMINI_API_KEY: 'fake',
      GOOGLE_GEMINI_BASE_URL: modelUrl,
      GEMINI_CLI_TRUST_WORKSPACE: 'true',
      NO_BROWSER: '1',
    },
    timeoutMs: 90_000,
  });
}

/** OpenCode's config for the scripted Anthropic server, and the plugin package seeded where it would install it. */
function opencodeSetup(w: ClientWorld, modelUrl: string, mcp?: Record<string, unknown>): void {
  const config = join(w.home, '.config', 'opencode');
  mkdirSync(config, { recursive: true });
  writeFileSync(
    join(config, 'opencode.json'),
    JSON.stringify({
      $schema: 'https://opencode.ai/config.json',
      model: 'anthropic/claude-sonnet-4-5',
      autoupdate: false,
      share: 'disabled',
      provider: {
        anthropic: {
          options: { baseURL: `${modelUrl}/v1`, apiKey: 'sk-ant-dummy' },
          models: { 'claude-sonnet-4-5': { name: 'Claude Sonnet 4.5', limit: { context: 200000, output: 8192 } } },
        },
      },
      ...(mcp ? { mcp } : {}),
    }),
  );
  const plugin = pkgDir('@opencode-ai/plugin');
  if (!plugin) throw new Error('@opencode-ai/plugin is not installed: OpenCode would fetch it from the npm registry.');
  for (const at of [config, join(w.project, '.opencode')]) seedPlugin(at, plugin);
}

function seedPlugin(at: string, plugin: string): void {
  const nm = join(at, 'node_modules', '@opencode-ai');
  mkdirSync(nm, { recursive: true });
  if (!existsSync(join(nm, 'plugin'))) cpSync(plugin, join(nm, 'plugin'), { recursive: true, dereference: true });
  const version = (require_(join(plugin, 'package.json')) as { version: string }).version;
  // OpenCode installs only when node_modules is missing or package.json names a dependency its package-lock.json
  // does not (its Npm.install): both files say the plugin package is there.
  const deps = { '@opencode-ai/plugin': version };
  if (!existsSync(join(at, 'package.json'))) writeFileSync(join(at, 'package.json'), JSON.stringify({ dependencies: deps }));
  if (!existsSync(join(at, 'package-lock.json')))
    writeFileSync(join(at, 'package-lock.json'), JSON.stringify({ lockfileVersion: 3, packages: { '': { dependencies: deps } } }));
}

/** `mcp`: OpenCode's `mcp` config (servers by name), for a run whose model calls an MCP tool. */
export function opencode(w: ClientWorld, modelUrl: string, prompt = 'do it', mcp?: Record<string, unknown>): Promise<Run> {
  const cmd = opencodeCommand();
  if (!cmd) throw new Error('opencode-ai is not installed (npm ci installs the pinned dev dependency).');
  opencodeSetup(w, modelUrl, mcp);
  return run([...cmd, 'run', prompt, '--format', 'json'], {
    cwd: w.project,
    env: {
      PATH: BASE_PATH,
      HOME: w.home,
      LANG: 'C.UTF-8',
      OPENCODE_DISABLE_AUTOUPDATE: '1',
      OPENCODE_DISABLE_SHARE: '1',
      OPENCODE_DISABLE_MODELS_FETCH: '1',
      OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
      OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
      // Any package install it still tried would fail here, not reach the npm registry.
      NPM_CONFIG_REGISTRY: 'http://127.0.0.1:9/',
      BUN_CONFIG_REGISTRY: 'http://127.0.0.1:9/',
    },
    timeoutMs: 120_000,
  });
}
