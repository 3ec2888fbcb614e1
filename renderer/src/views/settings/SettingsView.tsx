// Settings: a side list of sections; Agents ▸ Orchestration is the first.
import { useNav, SETTINGS_SECTIONS } from '../../stores/nav.js';
import { OrchestrationPage } from './OrchestrationPage.js';
import { ModelsPage } from './ModelsPage.js';
import { ConnectionsPage } from './ConnectionsPage.js';
import { DeskPage } from './DeskPage.js';
import { GrantsPage } from './GrantsPage.js';
import { useStatus } from '../../stores/status.js';
import { UndoGraceSetting } from './UndoGraceSetting.js';
import { NotifySetting } from './NotifySetting.js';

function About() {
  const { version, dataDir } = useStatus();
  return (
    <div className="settings-page">
      <header className="page-head">
        <p className="crumbs">Settings ▸ App ▸ About</p>
        <h1>About NEXUS</h1>
      </header>
      <section className="panel">
        <dl className="facts">
          <div>
            <dt>Version</dt>
            <dd>{version || '—'}</dd>
          </div>
          <div>
            <dt>Data folder</dt>
            <dd className="target">{dataDir || '—'}</dd>
          </div>
        </dl>
        <p className="setting-desc">
          Everything this window does can also be done headless with the <code>nexus</code> command against the same data folder.
        </p>
      </section>
      <NotifySetting />
      <UndoGraceSetting />
    </div>
  );
}

export function SettingsView() {
  const { section, go } = useNav();
  let group = '';
  return (
    <div className="settings">
      <nav className="side-nav" aria-label="Settings sections">
        {SETTINGS_SECTIONS.map((s) => {
          const head = s.group !== group ? <div className="side-group">{(group = s.group)}</div> : null;
          return (
            <div key={s.id}>
              {head}
              <a
                href={`#/settings/${s.id}`}
                className={`side-link ${section === s.id ? 'active' : ''}`}
                aria-current={section === s.id ? 'page' : undefined}
                onClick={(e) => {
                  e.preventDefault();
                  go('settings', s.id);
                }}
              >
                {s.label}
              </a>
            </div>
          );
        })}
      </nav>
      <div className="settings-body" tabIndex={0} role="region" aria-label="Settings page">
        {section === 'orchestration' ? (
          <OrchestrationPage />
        ) : section === 'models' ? (
          <ModelsPage />
        ) : section === 'connections' ? (
          <ConnectionsPage />
        ) : section === 'desk' ? (
          <DeskPage />
        ) : section === 'grants' ? (
          <GrantsPage />
        ) : (
          <About />
        )}
      </div>
    </div>
  );
}
