// Realistic objects of scheduling.orch.io's kinds, as clients and controllers write them, keyed
// `<apiVersion>/<kind>`: test data (the schema model's round trips, the Table tests, the gateway's
// API tests, the fuzz), never read by a server.
import { meta } from './helpers.js';

export const schedulingObjects: Record<string, Record<string, unknown>> = {
  'scheduling.orch.io/v1/PriorityClass': {
    apiVersion: 'scheduling.orch.io/v1',
    kind: 'PriorityClass',
    metadata: meta('high-priority'),
    value: 1000000,
    description: 'For latency-critical services.',
    preemptionPolicy: 'Never',
  },
};
