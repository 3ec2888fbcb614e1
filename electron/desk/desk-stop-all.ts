// The desk's Stop all as this machine holds it: engaged at the desk (by anyone) means engaged here. The first time
// the desk says so, this machine stops everything in flight as a local Stop all would; when the desk lifts it,
// this machine resumes if the desk had stopped it (which also lifts a Stop all pressed here in the meantime).
import type { Governance } from '../governance/service.js';
import type { Kernel } from '../kernel/kernel.js';

export class DeskStopAll {
  /** What the desk said last. */
  engaged = false;
  /** This machine stopped its work because the desk said so (and may resume when it lifts it). */
  private stoppedByDesk = false;

  constructor(
    private readonly kernel: Kernel,
    private readonly governance: Governance | null,
  ) {}

  /** The desk's answer, at a heartbeat, a wake-up, or this machine's own press. */
  apply(on: boolean): void {
    this.engaged = on;
    const gov = this.governance;
    if (!gov || !this.kernel.isOpen) return;
    if (on && !this.stoppedByDesk) {
      this.stoppedByDesk = true;
      gov.stopAll();
    } else if (!on && this.stoppedByDesk) {
      this.stoppedByDesk = false;
      gov.resume();
    }
  }
}
