export type {
  AuthorizationMode,
  GatewayBackends,
  GatewayEndpoint,
  GatewayOptions,
  KubeconfigSpec,
  SuiteDescription,
  SuiteOptions,
  SuiteRole,
} from './describe-suite.js';
export {
  describeSuite,
  etcdProcess,
  gatewayProcess,
  natsProcess,
  serviceAccountAdmissionOff,
} from './describe-suite.js';
export type { NodeService } from './service-entry.js';
export {
  assertBundlesFresh,
  bundleInputsFile,
  bundleStaleness,
  nodeServices,
  serviceEntry,
} from './service-entry.js';
export { findExecutable } from './find-executable.js';
export { freePort, freePorts, portIsFree } from './free-port.js';
export { launchSuite, writeSuiteFiles } from './launch-suite.js';
export type { LaunchedProcess, LauncherOptions } from './launcher.js';
export { LaunchAbortedError, LaunchError, Launcher } from './launcher.js';
export type { ProcessSpec, Readiness } from './process-spec.js';
export { describeReadiness, probeReadiness } from './readiness.js';
export {
  OutputTail,
  hasExited,
  registerProcess,
  registerTempDir,
  runningProcessCount,
  stopProcess,
  unregisterTempDir,
} from './processes.js';
