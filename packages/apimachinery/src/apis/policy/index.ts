// The policy group (upstream pkg/apis/policy): PodDisruptionBudget (Eviction is the pods/eviction
// subresource's object).
import type { APIGroupDefinition } from '../types.js';
import { policyTablePrinters } from './printers.js';
import { policyResources } from './resources.js';

export const policy: APIGroupDefinition = {
  name: 'policy',
  resources: policyResources,
  tablePrinters: policyTablePrinters,
};
