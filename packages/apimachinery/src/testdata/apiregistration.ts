// Realistic objects of apiregistration.orch.io's kinds, as clients and controllers write them,
// keyed `<apiVersion>/<kind>`: test data (the schema model's round trips, the Table tests, the
// gateway's API tests, the fuzz), never read by a server.
import { meta } from './helpers.js';

export const apiregistrationObjects: Record<string, Record<string, unknown>> = {
  'apiregistration.orch.io/v1/APIService': {
    apiVersion: 'apiregistration.orch.io/v1',
    kind: 'APIService',
    metadata: meta('v1beta1.metrics.orch.io'),
    spec: {
      service: { namespace: 'kube-system', name: 'metrics-server', port: 443 },
      group: 'metrics.orch.io',
      version: 'v1beta1',
      insecureSkipTLSVerify: true,
      groupPriorityMinimum: 100,
      versionPriority: 100,
    },
    status: {
      conditions: [
        {
          type: 'Available',
          status: 'False',
          lastTransitionTime: '2024-05-01T10:05:00Z',
          reason: 'MissingEndpoints',
          message: 'endpoints for service/metrics-server in "kube-system" have no addresses',
        },
      ],
    },
  },
};
