// RBAC roles and bindings (rbac.authorization.orch.io/v1 Role, ClusterRole, RoleBinding,
// ClusterRoleBinding) as the authorizer and the gateway's escalation checks read them.
import type { ObjectMeta } from '../meta/index.js';
import type { LabelSelectorObject } from '../selectors/index.js';
import type { PolicyRule } from './policy-rule.js';

/** Who a binding grants to (k8s rbacv1.Subject): a User, Group or ServiceAccount. */
export interface Subject {
  kind: string;
  name: string;
  namespace?: string;
  apiGroup?: string;
}

/** The role a binding refers to (k8s rbacv1.RoleRef). */
export interface RoleRef {
  apiGroup?: string;
  kind: string;
  name: string;
}

/** How a ClusterRole gathers the rules of others (k8s rbacv1.AggregationRule). */
export interface AggregationRule {
  clusterRoleSelectors?: LabelSelectorObject[];
}

/** A Role or ClusterRole. */
export interface Role {
  metadata: ObjectMeta;
  rules?: PolicyRule[] | null;
  aggregationRule?: AggregationRule | null;
  [k: string]: unknown;
}

/** A RoleBinding or ClusterRoleBinding. */
export interface RoleBinding {
  metadata: ObjectMeta;
  subjects?: Subject[] | null;
  roleRef: RoleRef;
  [k: string]: unknown;
}
