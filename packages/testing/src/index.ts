export type { EtcdServer, StandaloneEtcd, StartEtcdOptions } from './etcd-server.js';
export { startEtcd } from './etcd-server.js';
export { freePort, registerProcess, runningProcessCount, stopProcess } from '@orch/suite';
export type { NatsServer } from './nats-server.js';
export { startNats } from './nats-server.js';
export type { SpawnBackendOptions, SpawnedBackend } from './spawn-backend.js';
export { PortInUseError, spawnBackend } from './spawn-backend.js';
export type { ThrowawayPki } from './throwaway-pki.js';
export { throwawayPki } from './throwaway-pki.js';
export type { WaitForOptions } from './wait-for.js';
export { requestUntil, waitFor } from './wait-for.js';
export type { Suite, SuiteLayout, SuiteOptions, SuiteResponse } from './suite.js';
export { serviceBundle, startSuite } from './suite.js';
export type { SharedSuiteOptions } from './shared-suite.js';
export { sharedSuite, sharedSuiteEnv, startSharedSuite } from './shared-suite.js';
export type { StartGatewayOptions } from './start-gateway.js';
export { startGateway } from './start-gateway.js';
export { refuseInUnitTier, testTierEnv } from './test-tier.js';
export type { UserCredentials } from './user-kubeconfig.js';
export { userKubeconfig } from './user-kubeconfig.js';
export { grantClusterRole } from './grant.js';
export type {
  ReviewAnswer,
  WebhookAnswer,
  WebhookCall,
  WebhookHandler,
  WebhookServer,
  WebhookServerOptions,
  ServingPems,
} from './webhook-server.js';
export { reviewResponse, startWebhookServer } from './webhook-server.js';
export type {
  ContainerUsage,
  ExtensionServer,
  ExtensionServerOptions,
  MetricsData,
} from './extension-server.js';
export {
  metricsGroup,
  metricsVersion,
  registrationOf,
  startExtensionServer,
} from './extension-server.js';
export { markdownSection, readRepoFile, repoRoot, undocumentedFlags } from './docs.js';
export type { FlowResourceRule } from './flow-control.js';
export {
  flowSchemasPath,
  flowcontrolGroup,
  priorityLevelsPath,
  queuedPriorityLevel,
  userFlowSchema,
} from './flow-control.js';
export { seededRandom } from './random.js';
