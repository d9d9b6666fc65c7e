// ValidatingAdmissionPolicy and the matchConditions compiler of the admission service.
export { celRequest, requestActivation } from './activation.js';
export type { ConditionResult } from './condition-set.js';
export { ConditionSet } from './condition-set.js';
export type { CompiledBinding, CompiledPolicy } from './compiled-policy.js';
export { CompileCache, compileBinding, compilePolicy } from './compiled-policy.js';
export { compileMatchConditions } from './match-conditions.js';
export { PolicyConfigError, resolveParams } from './param-resolver.js';
export type { PolicyFailure } from './policy-evaluator.js';
export { evaluatePolicy } from './policy-evaluator.js';
export {
  POLICY_GROUP,
  VALIDATION_FAILURE_ANNOTATION,
  ValidatingAdmissionPolicy,
} from './validating-admission-policy.js';
