// The window: the top bar and the view the person chose.
import { lazy, Suspense, useEffect } from 'react';
import { TopBar } from './components/TopBar.js';
import { StopAllBar } from './components/StopAllBar.js';
import { useNav, parseHash } from './stores/nav.js';
import { InboxView } from './views/inbox/InboxView.js';

// Views not on screen at start load when first opened: the inbox paints without parsing them (DESIGN §6).
const RunsView = lazy(() => import('./views/runs/RunsView.js').then((m) => ({ default: m.RunsView })));
const ChainsView = lazy(() => import('./views/chains/ChainsView.js').then((m) => ({ default: m.ChainsView })));
const AgentsView = lazy(() => import('./views/agents/AgentsView.js').then((m) => ({ default: m.AgentsView })));
const SettingsView = lazy(() => import('./views/settings/SettingsView.js').then((m) => ({ default: m.SettingsView })));
import { DemoBanner } from './views/demo/DemoBanner.js';
import { FirstRun } from './views/demo/FirstRun.js';

export function App() {
  const view = useNav((s) => s.view);
  const welcome = useNav((s) => s.welcome);
  useEffect(() => {
    const onHash = () => useNav.setState({ view: parseHash(location.hash) });
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);
  return (
    <div className="app">
      <TopBar />
      <StopAllBar />
      <DemoBanner />
      <main className="main" id="main">
        {welcome ? (
          <div className="welcome-over">
            <FirstRun fromHelp />
          </div>
        ) : null}
        {view === 'inbox' ? <InboxView /> : null}
        <Suspense fallback={<div className="loading">Loading…</div>}>
          {view === 'runs' ? <RunsView /> : null}
          {view === 'chains' ? <ChainsView /> : null}
          {view === 'agents' ? <AgentsView /> : null}
          {view === 'settings' ? <SettingsView /> : null}
        </Suspense>
      </main>
    </div>
  );
}
