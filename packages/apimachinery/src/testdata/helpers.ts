// What several groups' realistic objects share: an object's metadata as the server returns it,
// a pod template of one container.
export const meta = (name: string, namespace?: string): Record<string, unknown> => ({
  name,
  ...(namespace ? { namespace } : {}),
  uid: '5b1e2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
  resourceVersion: '4242',
  creationTimestamp: '2024-05-01T10:00:00Z',
});

export const template = (app: string, image: string): Record<string, unknown> => ({
  metadata: { labels: { app } },
  spec: {
    containers: [
      {
        name: app,
        image,
        ports: [{ name: 'http', containerPort: 8080, protocol: 'TCP' }],
        resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { memory: '256Mi' } },
      },
    ],
  },
});
