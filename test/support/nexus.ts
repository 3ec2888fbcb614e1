// Test harness for governance's integration tests: a real NEXUS (real SQLite in a fresh temp data dir, the
// real kernel), a test Ed25519 key pair for the account service, entitlement tokens signed with it.
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { SignJWT } from 'jose';
import { createNexus, type Nexus, type NexusModules } from '../../electron/app.js';
import { dispatch } from '../../electron/api/dispatch.js';
import { PUBLIC_KEY_ENV } from '../../electron/governance/entitlements.js';
import type { Governance } from '../../electron/governance/service.js';
import type { Clock } from '../../electron/kernel/clock.js';
import { world } from './world.js';

export interface TestAccount {
  privateKey: KeyObject;
  publicPem: string;
  token(claims?: Record<string, unknown>): Promise<string>;
}

export function testAccount(): TestAccount {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    privateKey,
    publicPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    token: (claims = {}) =>
      new SignJWT({ ent: ['nexus.orchestration'], exp: Math.floor(Date.now() / 1000) + 3600, ...claims })
        .setProtectedHeader({ alg: 'EdDSA' })
        .setSubject('acct_test')
        .sign(privateKey),
  };
}

export interface TestNexus {
  nexus: Nexus;
  gov: Governance;
  dataDir: string;
  account: TestAccount;
  call<T = unknown>(method: string, input?: unknown): Promise<T>;
  close(): Promise<void>;
  reopen(): Promise<TestNexus>;
}

/** `modules`: which modules to build (default all); governance is always among them. */
export async function testNexus(
  opts: { modules?: Partial<NexusModules>; account?: TestAccount; dataDir?: string; env?: NodeJS.ProcessEnv; clock?: Clock } = {},
): Promise<TestNexus> {
  const account = opts.account ?? testAccount();
  // close() removes the data dir, a dir passed in too (reopen passes the same dir on: its close removes it).
  const w = world();
  const dataDir = opts.dataDir ? w.own(opts.dataDir) : w.dir('gov');
  const env = { ...process.env, ...opts.env, [PUBLIC_KEY_ENV]: account.publicPem };
  const nexus = await createNexus({
    dataDir,
    env,
    ...(opts.modules ? { modules: { ...opts.modules, governance: true } } : {}),
    ...(opts.clock ? { clock: opts.clock } : {}),
  });
  const gov = nexus.governance;
  if (!gov) throw new Error('testNexus builds governance');
  let closed = false;
  const t: TestNexus = {
    nexus,
    gov,
    dataDir,
    account,
    async call<T>(method: string, input: unknown = {}) {
      const r = await dispatch(nexus.handlers, method, input, { door: 'internal' });
      if (!r.ok) throw Object.assign(new Error(`${method}: ${r.error.code}: ${r.error.message}`), { code: r.error.code });
      return r.value as T;
    },
    async close() {
      if (closed) return;
      closed = true;
      await nexus.close();
      await w.cleanup();
    },
    async reopen() {
      closed = true;
      await nexus.close();
      return testNexus({ ...opts, account, dataDir });
    },
  };
  return t;
}

/** Open the gate fully for a chain whose orchestrators are `allow`. */
export async function openGate(t: TestNexus, allow: string[], perHopApproval = true): Promise<void> {
  await t.call('entitlementsImport', { token: await t.account.token() });
  await t.call('settingsSet', { key: 'orchestration.enabled', value: true });
  await t.call('settingsSet', { key: 'orchestration.allowlist', value: allow });
  await t.call('settingsSet', { key: 'orchestration.perHopApproval', value: perHopApproval });
}
