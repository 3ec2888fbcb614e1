// An agent as the API lists it (AgentView) is its profile plus bookkeeping the kernel keeps (status and times).
// Saving it back sends the profile alone: the agent file's schema is strict and refuses keys it does not know.
// Zod-free, so the window's bundle does not need the schemas; agent-view.test.ts checks the list against them.

/** The keys AgentView adds to the profile (shared/api/agents.ts: AgentView = AgentProfileInput.extend(...)). */
export const VIEW_ONLY_KEYS = ['status', 'created_at', 'updated_at'] as const;
type ViewOnly = (typeof VIEW_ONLY_KEYS)[number];

/** The profile inside an agent's view: what agentsCreate / agentsReplace take. */
export function profileOfView<T extends object>(view: T & { status?: unknown; created_at?: unknown; updated_at?: unknown }): Omit<T, ViewOnly> {
  const { status: _s, created_at: _c, updated_at: _u, ...profile } = view;
  return profile;
}
