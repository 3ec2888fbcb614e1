// Orchestration governance, the pure half: codes, sentences, chain arithmetic, the gate, holds, settings.
export * from './codes.js';
export * from './sentences.js';
export * from './chain.js';
export * from './canonical.js';
export * from './gate.js';
export * from './holds.js';
export * from './settings.js';
