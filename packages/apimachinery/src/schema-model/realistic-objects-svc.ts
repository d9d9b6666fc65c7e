// Realistic objects of the svc branch's kinds (core v1 Binding), as clients write them.
export const realisticObjectsSvc: Record<string, Record<string, unknown>> = {
  'v1/Binding': {
    apiVersion: 'v1',
    kind: 'Binding',
    metadata: { name: 'web-7d9f8b6c5d-x2x4z', namespace: 'default' },
    target: { apiVersion: 'v1', kind: 'Node', name: 'node-1' },
  },
};
