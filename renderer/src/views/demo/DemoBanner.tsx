// Shown while the offline demo's agents exist, so nobody mistakes the scripted model for a real one.
import { useAgents } from '../../stores/agents.js';

export const isDemoAgent = (name: string) => name.startsWith('demo-');

export function DemoBanner() {
  const demo = useAgents((s) => s.agents.some((a) => isDemoAgent(a.name) && a.model.model.startsWith('nexus-demo')));
  if (!demo) return null;
  return (
    <div className="demo-banner" role="note">
      <strong>OFFLINE DEMO</strong> — the demo agents run on a scripted model inside NEXUS, not an AI. The approval stage, the orchestration
      gate and the cards are real.
    </div>
  );
}
