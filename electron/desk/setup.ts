// How createNexus builds the desk seat: from its options, else NEXUS_DESK_URL + NEXUS_MACHINE (+
// NEXUS_DESK_PERSON, NEXUS_DESK_SILENCE_S). Neither set: no desk, and the kernel is exactly as without one.
import { hostname } from 'node:os';
import { setDeskJoined } from '../store/queries/desk-outbox.js';
import { DeskClient, type DeskOptions, type DeskPorts } from './client.js';

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

export function createDesk(ports: DeskPorts, opts: DeskOptions | null): DeskClient | null {
  if (opts) return new DeskClient(ports, opts);
  setDeskJoined(ports.db, false); // a data dir that once joined, started without a desk: its triggers stay quiet
  return null;
}
