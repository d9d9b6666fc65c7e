// Realistic objects of node.orch.io's kinds, as clients and controllers write them, keyed
// `<apiVersion>/<kind>`: test data (the schema model's round trips, the Table tests, the gateway's
// API tests, the fuzz), never read by a server.
import { meta } from './helpers.js';

export const nodeObjects: Record<string, Record<string, unknown>> = {
  'node.orch.io/v1/RuntimeClass': {
    apiVersion: 'node.orch.io/v1',
    kind: 'RuntimeClass',
    metadata: meta('gvisor'),
    handler: 'runsc',
    overhead: { podFixed: { cpu: '250m', memory: '64Mi' } },
    scheduling: {
      nodeSelector: { 'runtime/gvisor': 'true' },
      tolerations: [{ key: 'runtime', operator: 'Equal', value: 'gvisor', effect: 'NoSchedule' }],
    },
  },
};
