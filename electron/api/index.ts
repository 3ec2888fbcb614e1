// The API's handlers, one factory per area, each handed what it needs. handler-table.ts composes them (with the
// demo's, connected clients' and the keychain's) into the one handler table that `satisfies Handlers`: a method
// without a handler fails the type check. electron/app.ts builds it; doors carry it via dispatch().
export { dispatch, personBy, ApiFailure, type Handlers, type CallContext } from './dispatch.js';
export { rulesHandlers } from './rules-handlers.js';
export { kernelHandlers, type KernelApiPorts } from './kernel-handlers.js';
export { agentsHandlers, TURNS_METHODS, type StartTurnPort } from './agents-handlers.js';
export { orchestrationHandlers, GOVERNANCE_METHODS } from './orchestration-handlers.js';
export { modelsHandlers } from './models-handlers.js';
export { unavailable } from './unavailable.js';
export { deskHandlers } from './desk-handlers.js';
export { handlerTable, notBuilt, KEYS_METHODS, type KeysMethods, type HandlerTablePorts } from './handler-table.js';
