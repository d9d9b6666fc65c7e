// The RBAC group's REST storage (k8s pkg/registry/rbac/rest/storage_rbac.go). Escalation
// prevention is the RBACEscalationPrevention admission plugin, given the role Stores.
import type { RestStorageProvider } from '../rest-storage-provider.js';
import {
  clusterRoleBindingStrategy,
  clusterRoleStrategy,
  roleBindingStrategy,
  roleStrategy,
} from './strategy.js';

export const rbacProvider: RestStorageProvider = {
  groupName: 'rbac.authorization.orch.io',
  resources: {
    roles: { strategy: roleStrategy },
    rolebindings: { strategy: roleBindingStrategy },
    clusterroles: { strategy: clusterRoleStrategy },
    clusterrolebindings: { strategy: clusterRoleBindingStrategy },
  },
};
