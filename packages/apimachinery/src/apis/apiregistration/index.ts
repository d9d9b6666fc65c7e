// apiregistration.orch.io (upstream kube-aggregator pkg/apis/apiregistration): APIService.
import type { APIGroupDefinition } from '../types.js';
import { apiregistrationTablePrinters } from './printers.js';
import { apiregistrationGroup, apiregistrationResources } from './resources.js';

export const apiregistration: APIGroupDefinition = {
  name: apiregistrationGroup,
  resources: apiregistrationResources,
  tablePrinters: apiregistrationTablePrinters,
};
