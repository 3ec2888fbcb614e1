// Who may call the API over IPC: only the app's own window, its main frame, showing the app's own page.
// Kept electron-free (plain data in, boolean out) so it is unit-tested without an Electron binary.
export interface IpcSender {
  /** webContents.id of the sender. */
  senderId: number;
  /** URL of the frame that sent the message (event.senderFrame.url). */
  frameUrl: string | undefined;
  /** Whether that frame is the sender's main frame (not an iframe). */
  isMainFrame: boolean;
}
export interface OwnWindow {
  /** webContents.id of the app's window, or null before it exists / after it closed. */
  windowId: number | null;
  /** The renderer's index.html as a file:// URL (or the dev server URL). */
  appUrl: string;
}

export function isOwnWindow(sender: IpcSender, own: OwnWindow): boolean {
  if (own.windowId === null || sender.senderId !== own.windowId || !sender.isMainFrame || !sender.frameUrl) return false;
  let frame: URL;
  let app: URL;
  try {
    frame = new URL(sender.frameUrl);
    app = new URL(own.appUrl);
  } catch {
    return false;
  }
  // Same document: scheme, host and path; the hash (the view) and query may differ.
  return frame.protocol === app.protocol && frame.host === app.host && frame.pathname === app.pathname;
}

/** The IPC channel of one API method; events travel on EVENT_CHANNEL. */
export const channelOf = (method: string) => `nexus:${method}`;
export const EVENT_CHANNEL = 'nexus:event';
