// Stop all, as a settings panel: what it does and whether it is engaged. The control itself is in the top
// bar (and Resume in the red bar across every view while engaged), so it is on screen wherever you are.
import { useStatus } from '../../stores/status.js';

export function StopAllControl() {
  const stopAll = useStatus((s) => s.stopAll);
  return (
    <section className={`panel ${stopAll ? 'engaged' : ''}`} aria-labelledby="stop-all-panel">
      <h2 id="stop-all-panel">Stop all</h2>
      <div className="setting-desc">
        Force-stops every run in flight (nothing asks permission) and denies every governed hop until you press Resume. For the middle of an incident. The{' '}
        <strong>Stop all</strong> button is in the top bar on every page; while it is engaged, Resume is in the red bar under it.
      </div>
      <p className={stopAll ? 'stop-engaged' : 'muted'}>
        {stopAll ? (
          <>
            <span className="dot" aria-hidden="true" /> Engaged: canceled runs stay canceled; Resume allows new hops again.
          </>
        ) : (
          'Not engaged.'
        )}
      </p>
    </section>
  );
}
