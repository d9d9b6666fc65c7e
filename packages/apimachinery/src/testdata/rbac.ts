// Realistic objects of rbac.authorization.orch.io's kinds, as clients and controllers write them,
// keyed `<apiVersion>/<kind>`: test data (the schema model's round trips, the Table tests, the
// gateway's API tests, the fuzz), never read by a server.
export const rbacObjects: Record<string, Record<string, unknown>> = {
  'rbac.authorization.orch.io/v1/Role': {
    apiVersion: 'rbac.authorization.orch.io/v1',
    kind: 'Role',
    metadata: { name: 'pod-reader', namespace: 'default' },
    rules: [
      {
        verbs: ['get', 'list', 'watch'],
        apiGroups: [''],
        resources: ['pods', 'pods/log'],
        resourceNames: ['web'],
      },
    ],
  },
  'rbac.authorization.orch.io/v1/RoleBinding': {
    apiVersion: 'rbac.authorization.orch.io/v1',
    kind: 'RoleBinding',
    metadata: { name: 'read-pods', namespace: 'default' },
    subjects: [
      { kind: 'User', apiGroup: 'rbac.authorization.orch.io', name: 'jane' },
      { kind: 'ServiceAccount', name: 'web', namespace: 'default' },
    ],
    roleRef: { apiGroup: 'rbac.authorization.orch.io', kind: 'Role', name: 'pod-reader' },
  },
  'rbac.authorization.orch.io/v1/ClusterRole': {
    apiVersion: 'rbac.authorization.orch.io/v1',
    kind: 'ClusterRole',
    metadata: {
      name: 'monitoring',
      labels: { 'rbac.example.com/aggregate-to-monitoring': 'true' },
    },
    rules: [{ verbs: ['get'], nonResourceURLs: ['/metrics', '/healthz/*'] }],
    aggregationRule: {
      clusterRoleSelectors: [
        { matchLabels: { 'rbac.example.com/aggregate-to-monitoring': 'true' } },
      ],
    },
  },
  'rbac.authorization.orch.io/v1/ClusterRoleBinding': {
    apiVersion: 'rbac.authorization.orch.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: { name: 'monitoring' },
    subjects: [
      { kind: 'Group', apiGroup: 'rbac.authorization.orch.io', name: 'system:monitoring' },
    ],
    roleRef: { apiGroup: 'rbac.authorization.orch.io', kind: 'ClusterRole', name: 'monitoring' },
  },
};
