// The window: the top bar and the view the person chose.
import { useEffect } from 'react';
import { TopBar } from './components/TopBar.js';
import { useNav, parseHash } from './stores/nav.js';
import { InboxView } from './views/inbox/InboxView.js';
import { RunsView } from './views/runs/RunsView.js';
import { AgentsView } from './views/agents/AgentsView.js';
import { SettingsView } from './views/settings/SettingsView.js';
import { DemoBanner } from './views/demo/DemoBanner.js';

export function App() {
  const view = useNav((s) => s.view);
  useEffect(() => {
    const onHash = () => useNav.setState({ view: parseHash(location.hash) });
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);
  return (
    <div className="app">
      <TopBar />
      <DemoBanner />
      <main className="main" id="main">
        {view === 'inbox' ? <InboxView /> : null}
        {view === 'runs' ? <RunsView /> : null}
        {view === 'agents' ? <AgentsView /> : null}
        {view === 'settings' ? <SettingsView /> : null}
      </main>
    </div>
  );
}
