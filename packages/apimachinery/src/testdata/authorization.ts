// Realistic objects of authorization.orch.io's kinds, as clients and controllers write them, keyed
// `<apiVersion>/<kind>`: test data (the schema model's round trips, the Table tests, the gateway's
// API tests, the fuzz), never read by a server.
export const authorizationObjects: Record<string, Record<string, unknown>> = {
  'authorization.orch.io/v1/SubjectAccessReview': {
    apiVersion: 'authorization.orch.io/v1',
    kind: 'SubjectAccessReview',
    metadata: {},
    spec: {
      resourceAttributes: {
        namespace: 'default',
        verb: 'get',
        group: 'apps',
        version: 'v1',
        resource: 'deployments',
        subresource: 'scale',
        name: 'web',
      },
      user: 'jane',
      groups: ['dev', 'system:authenticated'],
      extra: { 'scopes.example.com': ['read', 'write'] },
      uid: '42',
    },
    status: {
      allowed: false,
      denied: true,
      reason: 'no RBAC policy matched',
      evaluationError: 'clusterrole "gone" not found',
    },
  },
  'authorization.orch.io/v1/SelfSubjectAccessReview': {
    apiVersion: 'authorization.orch.io/v1',
    kind: 'SelfSubjectAccessReview',
    metadata: {},
    spec: { nonResourceAttributes: { path: '/healthz', verb: 'get' } },
    status: {
      allowed: true,
      reason: 'RBAC: allowed by ClusterRoleBinding "system:public-info-viewer"',
    },
  },
  'authorization.orch.io/v1/LocalSubjectAccessReview': {
    apiVersion: 'authorization.orch.io/v1',
    kind: 'LocalSubjectAccessReview',
    metadata: { namespace: 'team-a' },
    spec: {
      resourceAttributes: { namespace: 'team-a', verb: 'create', resource: 'pods' },
      user: 'system:serviceaccount:team-a:builder',
    },
    status: { allowed: true },
  },
  'authorization.orch.io/v1/SelfSubjectRulesReview': {
    apiVersion: 'authorization.orch.io/v1',
    kind: 'SelfSubjectRulesReview',
    metadata: {},
    spec: { namespace: 'default' },
    status: {
      resourceRules: [
        {
          verbs: ['create'],
          apiGroups: ['authorization.orch.io'],
          resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'],
        },
        {
          verbs: ['get', 'update'],
          apiGroups: [''],
          resources: ['configmaps'],
          resourceNames: ['settings'],
        },
      ],
      nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/api', '/api/*', '/version'] }],
      incomplete: false,
    },
  },
};
