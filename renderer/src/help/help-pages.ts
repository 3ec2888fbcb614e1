// Which docs/ page explains the view on screen: the window's Help link opens it. Pure (test/docs checks that
// every page named here exists).
import type { SettingsSection, View } from '../stores/nav.js';

export interface HelpPage {
  /** A file in docs/. */
  file: string;
  title: string;
}

export const VIEW_HELP: Record<View, HelpPage> = {
  inbox: { file: 'modes.md', title: 'Modes and outcomes' },
  runs: { file: 'modes.md', title: 'Modes and outcomes' },
  chains: { file: 'orchestration-gate.md', title: 'The orchestration gate' },
  agents: { file: 'agent-file.md', title: 'The agent file and lifecycle hooks' },
  settings: { file: 'README.md', title: 'NEXUS documentation' },
};

export const SECTION_HELP: Record<SettingsSection, HelpPage> = {
  orchestration: { file: 'orchestration-gate.md', title: 'The orchestration gate' },
  models: { file: 'local-models.md', title: 'Connecting a local model' },
  connections: { file: 'claude-code-codex.md', title: 'Claude Code and Codex' },
  grants: { file: 'modes.md', title: 'Modes and outcomes' },
  desk: { file: 'desk.md', title: 'The team desk' },
  about: { file: 'README.md', title: 'NEXUS documentation' },
};

export const helpFor = (view: View, section: SettingsSection): HelpPage => (view === 'settings' ? SECTION_HELP[section] : VIEW_HELP[view]);
