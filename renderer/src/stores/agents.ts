// Agents view state: the profiles list and which one is open in the editor.
import { create } from 'zustand';
import type { z } from 'zod';
import type { AgentView, AgentProfileInput } from '../../../shared/api/agents.js';
import { call } from '../api/client.js';
import { coalesce } from './refetcher.js';
import { errorMessage } from '../../../shared/errors.js';
import { profileOfView } from '../../../shared/agent-view.js';

export type Agent = z.infer<typeof AgentView>;
export type AgentInput = z.input<typeof AgentProfileInput>;

interface AgentsState {
  agents: Agent[];
  loaded: boolean;
  error: string | null;
  /** The profile open in the editor: a name, 'new', or null. */
  editing: string | null;
  /** The last save's outcome, kept across the editor re-opening on the saved name. */
  notice: string | null;
  /** The model a new agent starts from (Settings ▸ Models ▸ "Make an agent with this model"), or null. */
  seed: AgentInput['model'] | null;
  refresh(): Promise<void>;
  edit(name: string | null): void;
  /** Open the editor on a new agent that uses this model. */
  newWithModel(model: AgentInput['model'], notice: string): void;
  /** Create a new agent (`conflict` when the name is taken) or replace the one being edited (`not_found` when it
   *  was removed meanwhile): a form never overwrites, or brings back, an agent it did not open. */
  save(input: AgentInput, how: 'create' | 'replace'): Promise<{ warnings: { index: number; kind: string; message: string }[] }>;
  remove(name: string): Promise<void>;
}

export const useAgents = create<AgentsState>((set) => {
  const refresh = coalesce(async () => {
    try {
      const agents = (await call('agentsList', {})).filter((a) => a.status === 'active');
      set({ agents, loaded: true, error: null });
    } catch (e) {
      set({ error: errorMessage(e), loaded: true });
    }
  });
  return {
    agents: [],
    loaded: false,
    error: null,
    editing: null,
    notice: null,
    seed: null,
    refresh,
    edit: (editing) => set({ editing, notice: null, seed: null }),
    newWithModel: (seed, notice) => set({ editing: 'new', seed, notice }),
    async save(input, how) {
      // The editor's draft starts from the agent's view: only its profile is sent back.
      const r = await call(how === 'create' ? 'agentsCreate' : 'agentsReplace', profileOfView(input));
      const n = r.warnings.length;
      set({ editing: r.agent.name, notice: n ? `Saved, with ${n} warning${n > 1 ? 's' : ''}.` : 'Saved.' });
      await refresh();
      return { warnings: r.warnings };
    },
    async remove(name) {
      await call('agentsRemove', { name });
      set({ editing: null });
      await refresh();
    },
  };
});
