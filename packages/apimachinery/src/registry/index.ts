export type { ResourceDefinition, Verb } from './resource-definition.js';
export { allVerbs, gvkOf } from './resource-definition.js';
// The built-in lists live with their groups in ../apis; kept here for the registry's readers.
export { builtinConversions, builtinResources } from '../apis/index.js';
export { ResourceRegistry, storageKey, storagePrefix } from './resource-registry.js';
export type {
  AuditAnnotation,
  ExpressionWarning,
  FailurePolicyType,
  MatchCondition,
  MatchPolicyType,
  MatchResources,
  MutatingWebhook,
  MutatingWebhookConfiguration,
  NamedRuleWithOperations,
  OperationType,
  ParameterNotFoundActionType,
  ParamKind,
  ParamRef,
  ReinvocationPolicyType,
  Rule,
  RuleWithOperations,
  ScopeType,
  ServiceReference,
  SideEffectClass,
  ValidatingAdmissionPolicy,
  ValidatingAdmissionPolicyBinding,
  ValidatingAdmissionPolicyBindingSpec,
  ValidatingAdmissionPolicySpec,
  ValidatingAdmissionPolicyStatus,
  ValidatingWebhook,
  ValidatingWebhookConfiguration,
  Validation,
  ValidationAction,
  ValidationReason,
  Variable,
  WebhookClientConfig,
} from './admissionregistration-types.js';
export {
  admissionRegistrationGroup,
  admissionRegistrationVersion,
} from './admissionregistration-types.js';
export { Conversions } from './conversion.js';
export type { ConversionFunc, ConversionKey } from './conversion.js';
export {
  defaultCpuUtilization,
  dropHpaRoundTripAnnotations,
  hpaBehaviorAnnotation,
  hpaConditionsAnnotation,
  hpaMetricSpecsAnnotation,
  hpaMetricStatusesAnnotation,
  hpaV1ToV2,
  hpaV2ToV1,
} from '../apis/autoscaling/index.js';
