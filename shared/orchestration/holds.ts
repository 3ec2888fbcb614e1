// What a held or refused hop answers with (DESIGN §3 per-hop approval). Pure.
import type { ToolResult } from '../types.js';
import { expiredSentence, heldSentence, refusedSentence, type HoldFacts } from './sentences.js';

export function heldResult(f: HoldFacts): ToolResult {
  return {
    isError: true,
    content: [{ type: 'text', text: heldSentence(f) }],
    structuredContent: {
      code: 'hop_held',
      // As for the six denials, "retryable" means "can change without a person acting": a hold cannot.
      retryable: false,
      reason: 'awaiting_person',
      setting: 'orchestration.perHopApproval',
      request_id: f.request_id,
      chain_id: f.chain_id,
      hop: f.hop,
    },
  };
}

/** `expired`: nobody answered within 24 h. Still `hop_refused` (it was not executed), but never "a person refused". */
export function refusedResult(f: HoldFacts & { reason?: string | null; expired?: boolean }): ToolResult {
  return {
    isError: true,
    content: [{ type: 'text', text: f.expired ? expiredSentence(f) : refusedSentence(f) }],
    structuredContent: {
      code: 'hop_refused',
      retryable: false,
      reason: f.expired ? 'approval_expired' : f.reason ? f.reason : 'refused_by_person',
      setting: 'orchestration.perHopApproval',
      request_id: f.request_id,
      chain_id: f.chain_id,
      hop: f.hop,
    },
  };
}
