// Every API method's name, in the order of the method table (index.ts), without the schemas: a caller that
// only sends names (the preload, the web bridge, the CLI's client commands) loads this and no zod. index.ts
// checks at the type level, and method-names.test.ts at run time, that the list is exactly the table's keys.
export const METHOD_NAMES = [
  // rules.ts
  'rulesCheck',
  'rulesEval',
  // kernel.ts
  'status',
  'agentsList',
  'agentsGet',
  'agentsCreate',
  'agentsReplace',
  'agentsSave',
  'agentsRemove',
  'runsList',
  'runsShow',
  'runsRows',
  'runsEvents',
  'runsStart',
  'runsCreate',
  'runsAppend',
  'runsStop',
  'rowsWait',
  'inboxList',
  'inboxSummary',
  'inboxIds',
  'inboxBulk',
  'inboxContext',
  'inboxApprove',
  'inboxDeny',
  'inboxRetry',
  'inboxAbandon',
  'inboxAnswer',
  'trustRevoke',
  'executorsRevoke',
  // orchestration.ts
  'settingsGet',
  'settingsSet',
  'stopAll',
  'resume',
  'entitlementsImport',
  'entitlementsShow',
  'entitlementsRefresh',
  'chainsList',
  'chainsClear',
  'tasksShow',
  'tasksList',
  // demo.ts
  'demoStart',
  // keys.ts
  'keysStatus',
  'keysSet',
  // external.ts
  'externalToolUse',
  'externalSessionEnd',
  'connectionsList',
  'connectionsPlan',
  'connectionsApply',
  // models.ts
  'modelsTest',
] as const;

export type ListedMethodName = (typeof METHOD_NAMES)[number];
