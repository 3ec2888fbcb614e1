// The Electron door (DESIGN §1): one ipcMain.handle per API method. Main checks everything: the sender must
// be the app's own window (webContents id, main frame, the app's page URL) and dispatch() validates the input
// with the method's zod schema. Events go to the window with webContents.send. The preload checks nothing.
import { ipcMain, type IpcMainInvokeEvent, type WebContents } from 'electron';
import { METHOD_NAMES } from '../../shared/api/index.js';
import { dispatch } from '../api/dispatch.js';
import type { ApiHost } from './host.js';
import { channelOf, EVENT_CHANNEL, isOwnWindow } from './ipc-sender.js';

import { MAX_MESSAGE_BYTES } from '../../shared/api/doors.js';
import { errorMessage } from '../../shared/errors.js';

export interface IpcDoorOptions {
  nexus: ApiHost;
  /** The window's webContents (null while there is none). */
  contents(): WebContents | null;
  /** The renderer page's URL (file://…/dist/renderer/index.html). */
  appUrl: string;
}

export function startIpcDoor(opts: IpcDoorOptions): () => void {
  const trusted = (event: IpcMainInvokeEvent): boolean => {
    const own = opts.contents();
    const frame = event.senderFrame;
    return isOwnWindow(
      { senderId: event.sender.id, frameUrl: frame?.url, isMainFrame: Boolean(frame && frame === event.sender.mainFrame) },
      { windowId: own && !own.isDestroyed() ? own.id : null, appUrl: opts.appUrl },
    );
  };
  for (const name of METHOD_NAMES) {
    ipcMain.handle(channelOf(name), async (event, input: unknown) => {
      // Guarded like every door: whatever fails answers an error; the window and the kernel go on.
      try {
        if (!trusted(event)) return { ok: false, error: { code: 'forbidden', message: 'Only the NEXUS window may call this.' } };
        if (Buffer.byteLength(JSON.stringify(input) ?? '') > MAX_MESSAGE_BYTES)
          return { ok: false, error: { code: 'too_large', message: `A request may be at most ${MAX_MESSAGE_BYTES} bytes.` } };
        return await dispatch(opts.nexus.handlers, name, input, { door: 'ipc' });
      } catch (e) {
        return { ok: false, error: { code: 'internal', message: `The call failed inside NEXUS: ${errorMessage(e)}` } };
      }
    });
  }
  const off = opts.nexus.onEvent((event) => {
    const own = opts.contents();
    if (own && !own.isDestroyed()) own.send(EVENT_CHANNEL, event);
  });
  return () => {
    off();
    for (const name of METHOD_NAMES) ipcMain.removeHandler(channelOf(name));
  };
}
