// rbac.authorization.orch.io (upstream pkg/apis/rbac): Role, RoleBinding, ClusterRole,
// ClusterRoleBinding.
import type { APIGroupDefinition } from '../types.js';
import { rbacGroup, rbacResources } from './resources.js';

export const rbac: APIGroupDefinition = { name: rbacGroup, resources: rbacResources };
