// The client's SessionEnd, told to NEXUS so the session's run ends. Nothing is decided here: the client ignores
// this hook's output, so it prints nothing, and NEXUS not running (or refusing) changes nothing for the client.
import { askKernel } from './ask-kernel.js';

export async function reportSessionEnd(
  dataDir: string,
  client: 'claude-code' | 'codex' | 'gemini' | 'opencode',
  event: Record<string, unknown>,
): Promise<void> {
  if (typeof event.session_id !== 'string' || !event.session_id) return;
  await askKernel(dataDir, 'externalSessionEnd', {
    client,
    event: {
      session_id: event.session_id,
      hook_event_name: 'SessionEnd',
      ...(typeof event.cwd === 'string' ? { cwd: event.cwd } : {}),
      ...(typeof event.reason === 'string' ? { reason: event.reason } : {}),
    },
  });
}
