export { collectProcessMetrics, eventLoopSampleMs, newRegistry } from './new-registry.js';
export type { Stability, StabilityLevel } from './stability.js';
export {
  currentMetricsVersion,
  resetShowHiddenMetrics,
  setShowHiddenMetrics,
  shouldHide,
  showHiddenMetricsFlags,
  validateShowHiddenMetricsVersion,
  withStability,
} from './stability.js';
