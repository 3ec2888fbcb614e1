// The built-in executor tools. AGENTS (runners, ask) and GOVERNANCE (delegate_task, message_agent) add
// theirs with kernel.registerTool / kernel.setRunTools.
import type { ExecutorTool } from '../types.js';
import { bashTool } from './bash.js';
import { editTool, listTool, readTool, writeTool } from './files.js';

export const BUILTIN_TOOLS: readonly ExecutorTool[] = [bashTool, readTool, writeTool, editTool, listTool];
export { confine, ConfinementError, prepareWorkspace } from './workspace.js';
export { runCommand } from './bash.js';
export type { BashOutcome } from './bash-result.js';
export type { ProcessTracker } from '../types.js';
export { childEnv } from '../../sandbox/env.js';
