// Realistic objects of events.orch.io's kinds, as clients and controllers write them, keyed
// `<apiVersion>/<kind>`: test data (the schema model's round trips, the Table tests, the gateway's
// API tests, the fuzz), never read by a server.
export const eventsObjects: Record<string, Record<string, unknown>> = {
  'events.orch.io/v1/Event': {
    apiVersion: 'events.orch.io/v1',
    kind: 'Event',
    metadata: { name: 'web.17c2', namespace: 'default' },
    eventTime: '2024-05-01T10:20:33.123456Z',
    series: { count: 4, lastObservedTime: '2024-05-01T10:30:00.000000Z' },
    reportingController: 'example.com/controller',
    reportingInstance: 'controller-1',
    action: 'Scale',
    reason: 'ScalingReplicaSet',
    regarding: {
      kind: 'Deployment',
      namespace: 'default',
      name: 'web',
      uid: 'd1',
      apiVersion: 'apps/v1',
    },
    note: 'Scaled up replica set web-7d9f8b6c5d to 3',
    type: 'Normal',
  },
};
