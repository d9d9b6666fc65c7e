// Realistic ResourceQuota and LimitRange objects (every field set), for the round-trip tests.
export const realisticQuotaObjects: Record<string, Record<string, unknown>> = {
  'v1/ResourceQuota': {
    apiVersion: 'v1',
    kind: 'ResourceQuota',
    metadata: {
      name: 'compute',
      namespace: 'team-a',
      uid: '0f5d9a53-2b4e-4c61-9a0c-1d2e3f405162',
      resourceVersion: '42',
      creationTimestamp: '2024-05-01T10:00:00Z',
    },
    spec: {
      hard: {
        pods: '10',
        'requests.cpu': '4',
        'limits.memory': '8Gi',
        'count/deployments.apps': '5',
      },
      scopes: ['NotTerminating'],
      scopeSelector: {
        matchExpressions: [
          { scopeName: 'PriorityClass', operator: 'In', values: ['high', 'medium'] },
        ],
      },
    },
    status: {
      hard: {
        pods: '10',
        'requests.cpu': '4',
        'limits.memory': '8Gi',
        'count/deployments.apps': '5',
      },
      used: {
        pods: '3',
        'requests.cpu': '1500m',
        'limits.memory': '3Gi',
        'count/deployments.apps': '1',
      },
    },
  },
  'v1/LimitRange': {
    apiVersion: 'v1',
    kind: 'LimitRange',
    metadata: {
      name: 'limits',
      namespace: 'team-a',
      uid: '3c1b2a09-8f7e-4d6c-b5a4-938271605f4e',
      resourceVersion: '43',
      creationTimestamp: '2024-05-01T10:00:00Z',
    },
    spec: {
      limits: [
        {
          type: 'Container',
          max: { cpu: '2', memory: '1Gi' },
          min: { cpu: '100m', memory: '4Mi' },
          default: { cpu: '500m', memory: '256Mi' },
          defaultRequest: { cpu: '200m', memory: '128Mi' },
          maxLimitRequestRatio: { cpu: '10' },
        },
        { type: 'Pod', max: { cpu: '4', memory: '2Gi' } },
        { type: 'PersistentVolumeClaim', min: { storage: '1Gi' }, max: { storage: '10Gi' } },
      ],
    },
  },
};
