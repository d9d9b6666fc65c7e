// The resources of rbac.authorization.orch.io, v1 (upstream pkg/registry/rbac/*/storage); the
// authorizer service reads them through an informer.
import type { ResourceDefinition } from '../../registry/resource-definition.js';
import { resource } from '../types.js';
import type { ResourceFields } from '../types.js';

export const rbacGroup = 'rbac.authorization.orch.io';

const rbac = (def: ResourceFields): ResourceDefinition => resource(rbacGroup, 'v1', def);

export const rbacResources: readonly ResourceDefinition[] = [
  rbac({ resource: 'roles', kind: 'Role', singular: 'role', namespaced: true }),
  rbac({
    resource: 'rolebindings',
    kind: 'RoleBinding',
    singular: 'rolebinding',
    namespaced: true,
  }),
  rbac({
    resource: 'clusterroles',
    kind: 'ClusterRole',
    singular: 'clusterrole',
    namespaced: false,
  }),
  rbac({
    resource: 'clusterrolebindings',
    kind: 'ClusterRoleBinding',
    singular: 'clusterrolebinding',
    namespaced: false,
  }),
];
