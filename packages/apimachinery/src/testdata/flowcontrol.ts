// Realistic objects of flowcontrol.apiserver.orch.io's kinds, as clients and controllers write
// them, keyed `<apiVersion>/<kind>`: test data (the schema model's round trips, the Table tests,
// the gateway's API tests, the fuzz), never read by a server. Named apart from the configuration
// every gateway keeps (service-accounts, workload-low), which a suite already holds.
import { meta } from './helpers.js';

export const flowcontrolObjects: Record<string, Record<string, unknown>> = {
  'flowcontrol.apiserver.orch.io/v1/FlowSchema': {
    apiVersion: 'flowcontrol.apiserver.orch.io/v1',
    kind: 'FlowSchema',
    metadata: meta('example-service-accounts'),
    spec: {
      priorityLevelConfiguration: { name: 'example-workload-low' },
      matchingPrecedence: 9000,
      distinguisherMethod: { type: 'ByUser' },
      rules: [
        {
          subjects: [
            { kind: 'Group', group: { name: 'system:serviceaccounts' } },
            { kind: 'ServiceAccount', serviceAccount: { namespace: 'default', name: 'web' } },
            { kind: 'User', user: { name: 'alice' } },
          ],
          resourceRules: [
            {
              verbs: ['*'],
              apiGroups: ['*'],
              resources: ['*'],
              clusterScope: true,
              namespaces: ['*'],
            },
          ],
          nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/metrics/*'] }],
        },
      ],
    },
    status: {
      conditions: [
        {
          type: 'Dangling',
          status: 'False',
          lastTransitionTime: '2024-05-01T10:00:01Z',
          reason: 'Found',
          message:
            'This FlowSchema references the PriorityLevelConfiguration object named "workload-low" and it exists',
        },
      ],
    },
  },
  'flowcontrol.apiserver.orch.io/v1/PriorityLevelConfiguration': {
    apiVersion: 'flowcontrol.apiserver.orch.io/v1',
    kind: 'PriorityLevelConfiguration',
    metadata: meta('example-workload-low'),
    spec: {
      type: 'Limited',
      limited: {
        nominalConcurrencyShares: 100,
        limitResponse: {
          type: 'Queue',
          queuing: { queues: 128, handSize: 6, queueLengthLimit: 50 },
        },
        lendablePercent: 90,
        borrowingLimitPercent: 0,
      },
    },
    status: {
      conditions: [
        {
          type: 'ConcurrencyShared',
          status: 'True',
          lastTransitionTime: '2024-05-01T10:00:01Z',
          reason: 'Configured',
          message: 'ok',
        },
      ],
    },
  },
};

// The same objects in v1beta3 (the fields are v1's).
for (const kind of ['FlowSchema', 'PriorityLevelConfiguration']) {
  const v1 = flowcontrolObjects[`flowcontrol.apiserver.orch.io/v1/${kind}`]!;
  flowcontrolObjects[`flowcontrol.apiserver.orch.io/v1beta3/${kind}`] = {
    ...structuredClone(v1),
    apiVersion: 'flowcontrol.apiserver.orch.io/v1beta3',
  };
}
