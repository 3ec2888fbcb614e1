// The desk options createNexus starts with (electron/desk/seat.ts): its own, else NEXUS_DESK_URL + NEXUS_MACHINE (+
// NEXUS_DESK_PERSON, NEXUS_DESK_SILENCE_S). Neither set: no desk, and the kernel is exactly as without one.
import { hostname } from 'node:os';
import type { DeskOptions } from './client.js';

export function deskOptionsFromEnv(env: NodeJS.ProcessEnv): DeskOptions | null {
  const url = env.NEXUS_DESK_URL?.trim();
  if (!url) return null;
  const silence = env.NEXUS_DESK_SILENCE_S ? Number(env.NEXUS_DESK_SILENCE_S) : undefined;
  return {
    url,
    machine: env.NEXUS_MACHINE?.trim() || hostname().split('.')[0],
    person: env.NEXUS_DESK_PERSON?.trim() || null,
    ...(silence !== undefined ? { silenceStopS: silence } : {}),
  };
}
