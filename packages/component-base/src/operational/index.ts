export type { AuthDecision, DelegatingAuthOptions, UserInfo } from './delegating-auth.js';
export {
  DelegatingAuth,
  alwaysAllowGroups,
  nonResourceVerb,
  pathAlwaysAllowed,
} from './delegating-auth.js';
export type { OperationalOptions, OperationalTls } from './operational-flags.js';
export {
  defaultAlwaysAllowPaths,
  operationalBesideFlags,
  operationalFlags,
  operationalOptions,
  operationalOptionsBeside,
  operationalOptionsServing,
  operationalPortFlags,
  operationalServingFlags,
  validateOperational,
} from './operational-flags.js';
export type { OperationalServer, OperationalServerConfig } from './operational-server.js';
export { operationalApp, startOperationalServer } from './operational-server.js';
export type { DebugAnswer } from './debug-endpoints.js';
export {
  cpuProfileAnswer,
  heapSnapshotHeaders,
  readLogLevel,
  writeLogLevel,
} from './debug-endpoints.js';
export { cpuProfile, heapSnapshot } from './profiling.js';
export { isSecretKey, redact } from './redact.js';
