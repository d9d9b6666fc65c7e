// Realistic objects of coordination.orch.io's kinds, as clients and controllers write them, keyed
// `<apiVersion>/<kind>`: test data (the schema model's round trips, the Table tests, the gateway's
// API tests, the fuzz), never read by a server.
export const coordinationObjects: Record<string, Record<string, unknown>> = {
  'coordination.orch.io/v1/Lease': {
    apiVersion: 'coordination.orch.io/v1',
    kind: 'Lease',
    metadata: { name: 'controller-manager', namespace: 'kube-system' },
    spec: {
      holderIdentity: 'cm-1_abc',
      leaseDurationSeconds: 15,
      acquireTime: '2024-05-01T10:00:00.000000Z',
      renewTime: '2024-05-01T10:05:00.250000Z',
      leaseTransitions: 0,
    },
  },
};
