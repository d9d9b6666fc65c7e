// Realistic objects of discovery.orch.io's kinds, as clients and controllers write them, keyed
// `<apiVersion>/<kind>`: test data (the schema model's round trips, the Table tests, the gateway's
// API tests, the fuzz), never read by a server.
import { meta } from './helpers.js';

export const discoveryObjects: Record<string, Record<string, unknown>> = {
  'discovery.orch.io/v1/EndpointSlice': {
    apiVersion: 'discovery.orch.io/v1',
    kind: 'EndpointSlice',
    metadata: {
      ...meta('web-abc12', 'default'),
      labels: {
        'kubernetes.io/service-name': 'web',
        'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io',
      },
    },
    addressType: 'IPv4',
    endpoints: [
      {
        addresses: ['10.244.1.5'],
        conditions: { ready: true, serving: true, terminating: false },
        hostname: 'web-0',
        targetRef: {
          kind: 'Pod',
          namespace: 'default',
          name: 'web-0',
          uid: '0c1d2e3f-0000-4000-8000-000000000002',
        },
        nodeName: 'node-1',
        zone: 'zone-a',
        hints: { forZones: [{ name: 'zone-a' }] },
      },
    ],
    ports: [{ name: 'http', protocol: 'TCP', port: 8080, appProtocol: 'http' }],
  },
};
