// The preload exposes exactly `window.nexus: NexusApi`: one typed function per API method (built from
// METHOD_NAMES, never a generic invoke(channel)), plus onEvent. It checks nothing itself: main validates.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { METHOD_NAMES, type NexusEvent } from '../shared/api/index.js';
import { channelOf, EVENT_CHANNEL } from './doors/ipc-sender.js';

const api: Record<string, unknown> = {};
for (const name of METHOD_NAMES) {
  api[name] = (input: unknown) => ipcRenderer.invoke(channelOf(name), input);
}
api.onEvent = (listener: (event: NexusEvent) => void) => {
  const handler = (_e: IpcRendererEvent, event: NexusEvent) => listener(event);
  ipcRenderer.on(EVENT_CHANNEL, handler);
  return () => {
    ipcRenderer.removeListener(EVENT_CHANNEL, handler);
  };
};

contextBridge.exposeInMainWorld('nexus', Object.freeze(api));
