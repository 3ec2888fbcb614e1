// Which bulk answer is being confirmed. Apart from the inbox store so that a key (`a`/`d` with cards
// checked) and the toolbar's buttons open the same confirm dialog.
import { create } from 'zustand';

export type BulkAction = 'approve' | 'deny';

interface BulkAsk {
  asking: BulkAction | null;
  ask(action: BulkAction | null): void;
}

export const useBulkAsk = create<BulkAsk>((set) => ({
  asking: null,
  ask: (asking) => set({ asking }),
}));
