// What a door (web, ipc) needs from the running app: the one handler table and the event stream.
// Electron-free and transport-free, so both doors and their tests share it.
import type { Handlers } from '../api/dispatch.js';
import type { NexusEvent } from '../../shared/api/index.js';

export interface ApiHost {
  /** Complete: every method of the contract has its handler. */
  handlers: Handlers;
  /** Subscribe to every event the kernel pushes; returns the unsubscribe function. */
  onEvent(listener: (event: NexusEvent) => void): () => void;
}
