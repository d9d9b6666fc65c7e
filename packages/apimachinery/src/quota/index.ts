// Resource quota accounting shared by the gateway's admission and the quota controller:
// quantities, resource lists and the evaluators (k8s.io/apiserver/pkg/quota/v1,
// pkg/quota/v1/evaluator/core).
export type { Quantity, QuantityFormat } from './quantity.js';
export {
  addQuantities,
  compareQuantities,
  formatQuantity,
  isQuantityText,
  milliValue,
  mustParseQuantity,
  parseQuantity,
  quantityFromInt,
  subtractQuantities,
  wholeValue,
} from './quantity.js';
export type { ResourceList } from './resource-list.js';
export {
  addResourceLists,
  equalResourceLists,
  formatResourceList,
  lessThanOrEqual,
  maskResourceList,
  negativeResources,
  parseResourceList,
  prettyPrintResourceList,
  removeZeros,
  subtractNonNegative,
} from './resource-list.js';
export type { Evaluator, QuotaOperation, ScopeRequirement } from './evaluators.js';
export {
  evaluatorFor,
  hardResourceNames,
  isBestEffort,
  objectCountEvaluator,
  objectCountName,
  persistentVolumeClaimEvaluator,
  podEvaluator,
  quotaMatches,
  quotaScopes,
  resourceOfQuotaName,
  serviceEvaluator,
  storageClassSuffix,
} from './evaluators.js';
