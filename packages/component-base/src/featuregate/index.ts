export type { FeatureSpec, PreRelease } from './feature-gate.js';
export { FeatureGate, allAlphaGate, allBetaGate } from './feature-gate.js';
export type { FeatureGates } from './feature-gate-flags.js';
export {
  completeFeatureGates,
  featureGateFlags,
  registerFeatureMetrics,
} from './feature-gate-flags.js';
export {
  admissionWebhookMatchConditions,
  consistentListFromCache,
  defaultFeatureGates,
  watchBookmark,
} from './known-features.js';
