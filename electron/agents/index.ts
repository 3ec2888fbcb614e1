// Turns (AGENTS): rounds, fans, lifecycle hooks, compaction and `ask` on top of the kernel.
export { TurnEngine, type Finalizer, type FinalizerVerdict } from './engine.js';
export type { StartTurnOptions, TurnEngineOptions } from './turn-options.js';
export { HOOK_SOURCE } from './hooks.js';
export { systemPrompt, estimateTokens } from './policy.js';
export { allMessages, liveMessages, type StoredMessage } from '../store/queries/conversation.js';
