// The preload exposes exactly `window.nexus: NexusApi`: the typed client (shared/api/client.ts), one function
// per API method on its own IPC channel (never a generic invoke(channel)), plus onEvent. It checks nothing
// itself: main validates. It loads no zod (the method names come without their schemas), so it stays small.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { createClient } from '../shared/api/client.js';
import type { NexusApi, NexusEvent, Result } from '../shared/api/index.js';
import { channelOf, EVENT_CHANNEL } from './doors/ipc-sender.js';

const api = createClient({
  call: (name, input) => ipcRenderer.invoke(channelOf(name), input) as Promise<Result<unknown>>,
  onEvent(listener) {
    const handler = (_e: IpcRendererEvent, event: NexusEvent) => listener(event);
    ipcRenderer.on(EVENT_CHANNEL, handler);
    return () => {
      ipcRenderer.removeListener(EVENT_CHANNEL, handler);
    };
  },
}) satisfies NexusApi;

contextBridge.exposeInMainWorld('nexus', api);
