// The admissionregistration.orch.io/v1 kinds as TypeScript types (upstream
// k8s.io/api/admissionregistration/v1 types.go), as stored: after the v1 defaults, so the
// defaulted fields are present on objects read back from the API. The gateway validates them
// (registry/admissionregistration/); the admission service reads them through its informers.
import type { ObjectMeta } from '../meta/index.js';
import type { LabelSelectorObject } from '../selectors/index.js';

export const admissionRegistrationGroup = 'admissionregistration.orch.io';
export const admissionRegistrationVersion = 'v1';

export type OperationType = '*' | 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';
export type ScopeType = '*' | 'Cluster' | 'Namespaced';
export type FailurePolicyType = 'Ignore' | 'Fail';
export type MatchPolicyType = 'Exact' | 'Equivalent';
export type SideEffectClass = 'None' | 'NoneOnDryRun';
export type ReinvocationPolicyType = 'Never' | 'IfNeeded';
export type ValidationAction = 'Deny' | 'Warn' | 'Audit';
export type ParameterNotFoundActionType = 'Allow' | 'Deny';
/** The reasons a Validation may give (metav1.StatusReason values). */
export type ValidationReason = 'Unauthorized' | 'Forbidden' | 'Invalid' | 'RequestEntityTooLarge';

export interface Rule {
  apiGroups?: string[];
  apiVersions?: string[];
  resources?: string[];
  /** Defaulted to `*`. */
  scope?: ScopeType;
}

/** RuleWithOperations: the Rule is inline in JSON. */
export interface RuleWithOperations extends Rule {
  operations?: OperationType[];
}

export interface NamedRuleWithOperations extends RuleWithOperations {
  resourceNames?: string[];
}

export interface ServiceReference {
  namespace: string;
  name: string;
  path?: string;
  /** Defaulted to 443. */
  port?: number;
}

export interface WebhookClientConfig {
  url?: string;
  service?: ServiceReference;
  /** PEM CA bundle, base64 in JSON (a bytes field). */
  caBundle?: string;
}

export interface MatchCondition {
  name: string;
  expression: string;
}

interface WebhookCommon {
  name: string;
  clientConfig: WebhookClientConfig;
  rules?: RuleWithOperations[];
  /** Defaulted to Fail. */
  failurePolicy?: FailurePolicyType;
  /** Defaulted to Equivalent. */
  matchPolicy?: MatchPolicyType;
  /** Defaulted to `{}`. */
  namespaceSelector?: LabelSelectorObject;
  /** Defaulted to `{}`. */
  objectSelector?: LabelSelectorObject;
  sideEffects: SideEffectClass;
  /** Defaulted to 10. */
  timeoutSeconds?: number;
  admissionReviewVersions: string[];
  matchConditions?: MatchCondition[];
}

export type ValidatingWebhook = WebhookCommon;

export interface MutatingWebhook extends WebhookCommon {
  /** Defaulted to Never. */
  reinvocationPolicy?: ReinvocationPolicyType;
}

export interface ValidatingWebhookConfiguration {
  apiVersion?: string;
  kind?: 'ValidatingWebhookConfiguration';
  metadata: ObjectMeta;
  webhooks?: ValidatingWebhook[];
}

export interface MutatingWebhookConfiguration {
  apiVersion?: string;
  kind?: 'MutatingWebhookConfiguration';
  metadata: ObjectMeta;
  webhooks?: MutatingWebhook[];
}

export interface ParamKind {
  apiVersion: string;
  kind: string;
}

export interface ParamRef {
  name?: string;
  namespace?: string;
  selector?: LabelSelectorObject;
  parameterNotFoundAction?: ParameterNotFoundActionType;
}

export interface MatchResources {
  namespaceSelector?: LabelSelectorObject;
  objectSelector?: LabelSelectorObject;
  resourceRules?: NamedRuleWithOperations[];
  excludeResourceRules?: NamedRuleWithOperations[];
  matchPolicy?: MatchPolicyType;
}

export interface Validation {
  expression: string;
  message?: string;
  reason?: ValidationReason;
  messageExpression?: string;
}

export interface Variable {
  name: string;
  expression: string;
}

export interface AuditAnnotation {
  key: string;
  valueExpression: string;
}

export interface ValidatingAdmissionPolicySpec {
  paramKind?: ParamKind;
  matchConstraints?: MatchResources;
  validations?: Validation[];
  /** Defaulted to Fail. */
  failurePolicy?: FailurePolicyType;
  auditAnnotations?: AuditAnnotation[];
  matchConditions?: MatchCondition[];
  variables?: Variable[];
}

export interface ExpressionWarning {
  fieldRef: string;
  warning: string;
}

export interface ValidatingAdmissionPolicyStatus {
  observedGeneration?: number;
  typeChecking?: { expressionWarnings?: ExpressionWarning[] };
  conditions?: {
    type: string;
    status: string;
    observedGeneration?: number;
    lastTransitionTime?: string;
    reason?: string;
    message?: string;
  }[];
}

export interface ValidatingAdmissionPolicy {
  apiVersion?: string;
  kind?: 'ValidatingAdmissionPolicy';
  metadata: ObjectMeta;
  spec?: ValidatingAdmissionPolicySpec;
  status?: ValidatingAdmissionPolicyStatus;
}

export interface ValidatingAdmissionPolicyBindingSpec {
  policyName?: string;
  paramRef?: ParamRef;
  matchResources?: MatchResources;
  validationActions?: ValidationAction[];
}

export interface ValidatingAdmissionPolicyBinding {
  apiVersion?: string;
  kind?: 'ValidatingAdmissionPolicyBinding';
  metadata: ObjectMeta;
  spec?: ValidatingAdmissionPolicyBindingSpec;
}
