// "Open NEXUS" from anywhere — the Dock (macOS `activate`), the tray, a second launch, a notification's click,
// File > Open NEXUS Window: bring the window forward, or open a new one when none is left. On macOS the app
// keeps running after its last window closes, so "none left" is an ordinary state, not an error.
export interface WindowLike {
  isDestroyed(): boolean;
  isMinimized(): boolean;
  restore(): void;
  show(): void;
  focus(): void;
}

export function windowOpener(current: () => WindowLike | null, create: () => void): () => void {
  return () => {
    const w = current();
    if (!w || w.isDestroyed()) {
      create();
      return;
    }
    if (w.isMinimized()) w.restore();
    w.show();
    w.focus();
  };
}
