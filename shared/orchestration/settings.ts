// The settings a person may change (DESIGN §5 `settings set`). Their values' schemas are in setting-values.ts,
// apart, so a client command that only names a key loads no zod. Pure.

export const SETTABLE_KEYS = [
  'orchestration.enabled',
  'orchestration.maxDepth',
  'orchestration.maxAgents',
  'orchestration.allowlist',
  'orchestration.perHopApproval',
  'approval.stopHookCap',
  'delegation.maxRefusals',
  'clients.idleMinutes',
] as const;
export type SettableKey = (typeof SETTABLE_KEYS)[number];

export function isSettableKey(key: string): key is SettableKey {
  return (SETTABLE_KEYS as readonly string[]).includes(key);
}
