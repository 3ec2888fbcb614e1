// The OS sandbox around every process an agent's calls start (bash rows, acceptance checks and lifecycle
// hooks, which are bash rows too, and stdio MCP servers): see README.md "Security".
export { policyFor, hostAllowed, type SandboxPolicy } from './policy.js';
export { childEnv, BASE_ENV } from './env.js';
export { sandboxAvailability, setSandboxProbe, INSTALL_SENTENCE, type SandboxAvailability, type SandboxProbe } from './detect.js';
export { prepareLaunch, withSeccompFd, type Launch, type LaunchOrRefusal } from './launch.js';
export { processStartTime, killSurvivors } from './processes.js';
