// Which view is showing. Kept in the URL hash so a reload (or a link) lands on the same view.
import { create } from 'zustand';

export type View = 'inbox' | 'runs' | 'chains' | 'agents' | 'settings';
export const VIEWS: { id: View; label: string }[] = [
  { id: 'inbox', label: 'Inbox' },
  { id: 'runs', label: 'Runs' },
  { id: 'chains', label: 'Chains' },
  { id: 'agents', label: 'Agents' },
  { id: 'settings', label: 'Settings' },
];

export function parseHash(hash: string): View {
  const v = hash.replace(/^#\/?/, '').split('/')[0];
  return (VIEWS.find((x) => x.id === v)?.id ?? 'inbox') as View;
}

/** The card a `#/inbox/<id>` address names (a desktop notification's Deny opens the card this way). */
export function cardOfHash(hash: string): string | null {
  const m = /^#\/?inbox\/(.+)$/.exec(hash);
  if (!m) return null;
  try {
    return decodeURIComponent(m[1]);
  } catch {
    return null;
  }
}

export type SettingsSection = 'orchestration' | 'models' | 'connections' | 'grants' | 'desk' | 'about';

export const SETTINGS_SECTIONS: { id: SettingsSection; group: string; label: string }[] = [
  { id: 'orchestration', group: 'Agents', label: 'Orchestration' },
  { id: 'models', group: 'Agents', label: 'Models' },
  { id: 'connections', group: 'Agents', label: 'Connections' },
  { id: 'grants', group: 'Agents', label: 'Grants' },
  { id: 'desk', group: 'Team', label: 'Desk' },
  { id: 'about', group: 'App', label: 'About' },
];

interface NavState {
  view: View;
  section: SettingsSection;
  /** The welcome (with the offline demo) opened from Help, after the first agent exists. */
  welcome: boolean;
  showWelcome(on: boolean): void;
  go(view: View, section?: SettingsSection): void;
}

export const useNav = create<NavState>((set) => ({
  view: typeof location === 'undefined' ? 'inbox' : parseHash(location.hash),
  section: 'orchestration',
  welcome: false,
  showWelcome: (welcome) => set({ welcome }),
  go(view, section) {
    if (typeof location !== 'undefined' && parseHash(location.hash) !== view) location.hash = `#/${view}`;
    set(section ? { view, section } : { view });
  },
}));
