// Realistic objects of policy's kinds, as clients and controllers write them, keyed
// `<apiVersion>/<kind>`: test data (the schema model's round trips, the Table tests, the gateway's
// API tests, the fuzz), never read by a server.
export const policyObjects: Record<string, Record<string, unknown>> = {
  'policy/v1/PodDisruptionBudget': {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name: 'web', namespace: 'default', generation: 1 },
    spec: {
      minAvailable: 2,
      selector: { matchLabels: { app: 'web' } },
      unhealthyPodEvictionPolicy: 'AlwaysAllow',
    },
    status: {
      observedGeneration: 1,
      disruptedPods: { 'web-abc': '2024-05-01T10:00:00Z' },
      disruptionsAllowed: 1,
      currentHealthy: 3,
      desiredHealthy: 2,
      expectedPods: 3,
      conditions: [
        {
          type: 'DisruptionAllowed',
          status: 'True',
          observedGeneration: 1,
          lastTransitionTime: '2024-05-01T10:00:00Z',
          reason: 'SufficientPods',
          message: 'The disruption budget has enough healthy pods.',
        },
      ],
    },
  },
  'policy/v1/Eviction': {
    apiVersion: 'policy/v1',
    kind: 'Eviction',
    metadata: { name: 'web-abc', namespace: 'default' },
    deleteOptions: {
      gracePeriodSeconds: 30,
      preconditions: { uid: 'p-1', resourceVersion: '4711' },
      propagationPolicy: 'Background',
      dryRun: ['All'],
    },
  },
};
