// The RBAC objects as the authorizer reads them (rbac.authorization.orch.io/v1) and the
// attributes it decides on (k8s authorizer.Attributes).
import type { Decision } from '@orch/apimachinery/grpc';

export interface PolicyRule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

export interface Subject {
  kind: string;
  name: string;
  namespace?: string;
  apiGroup?: string;
}

export interface RoleRef {
  apiGroup?: string;
  kind: string;
  name: string;
}

export interface ObjectMeta {
  name?: string;
  namespace?: string;
  labels?: Record<string, string>;
  resourceVersion?: string;
  [k: string]: unknown;
}

export interface Role {
  metadata: ObjectMeta;
  rules?: PolicyRule[] | null;
  aggregationRule?: { clusterRoleSelectors?: LabelSelectorObject[] } | null;
  [k: string]: unknown;
}

export interface Binding {
  metadata: ObjectMeta;
  subjects?: Subject[] | null;
  roleRef: RoleRef;
  [k: string]: unknown;
}

export interface LabelSelectorObject {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
}

export interface UserAttributes {
  name: string;
  uid: string;
  groups: string[];
  extra: Record<string, string[]>;
}

export interface Attributes {
  user: UserAttributes;
  verb: string;
  isResourceRequest: boolean;
  path: string;
  apiGroup: string;
  resource: string;
  subresource: string;
  namespace: string;
  name: string;
}

export type { Decision };

export interface AuthorizationResult {
  decision: Decision;
  reason: string;
  evaluationError?: string;
  /**
   * True when the request's resource name played no part: the decision is the same for any name
   * (allowed by a rule without resourceNames, or no rule with resourceNames applies). Unset means
   * it may depend on the name.
   */
  nameIndependent?: boolean;
}

export interface RulesReviewResult {
  resourceRules: PolicyRule[];
  nonResourceRules: PolicyRule[];
  incomplete: boolean;
  evaluationError: string;
}

/** The authorizer role of this service (k8s authorizer.Authorizer + RuleResolver). */
export interface Authorizer {
  authorize(a: Attributes): AuthorizationResult;
  rulesFor(user: UserAttributes, namespace: string): RulesReviewResult;
}

export const anonymousUser = 'system:anonymous';
export const unauthenticatedGroup = 'system:unauthenticated';
export const serviceAccountPrefix = 'system:serviceaccount:';
