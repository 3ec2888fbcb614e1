// Stop all, as a settings panel (the top bar has the same control): confirm first, then Resume.
import { useState } from 'react';
import { useStatus } from '../../stores/status.js';
import { ConfirmDialog } from '../../components/ConfirmDialog.js';

export function StopAllControl() {
  const { stopAll, stopEverything, resume } = useStatus();
  const [confirming, setConfirming] = useState(false);
  return (
    <section className={`panel ${stopAll ? 'engaged' : ''}`}>
      <h2>Stop all</h2>
      <div className="setting-row">
        <div className="setting-text">
          <div className="setting-desc">
            Force-stops every run in flight (nothing asks permission) and denies every governed hop until you press Resume. For the middle
            of an incident.
          </div>
        </div>
        {stopAll ? (
          <div className="inline-form">
            <span className="stop-engaged">
              <span className="dot" aria-hidden="true" /> Engaged
            </span>
            <button type="button" className="btn primary" onClick={() => void resume()}>
              Resume
            </button>
          </div>
        ) : (
          <button type="button" className="btn danger" onClick={() => setConfirming(true)}>
            Stop all
          </button>
        )}
      </div>
      {confirming ? (
        <ConfirmDialog
          title="Stop everything?"
          confirmLabel="Stop everything"
          danger
          onCancel={() => setConfirming(false)}
          onConfirm={() => {
            setConfirming(false);
            void stopEverything();
          }}
        >
          <p>Every run in flight is force-stopped, and every governed hop is denied until you press Resume.</p>
        </ConfirmDialog>
      ) : null}
    </section>
  );
}
