// networking.orch.io (upstream pkg/apis/networking): Ingress, IngressClass, NetworkPolicy.
import type { APIGroupDefinition } from '../types.js';
import { networkingTablePrinters } from './printers.js';
import { networkingGroup, networkingResources } from './resources.js';

export const networking: APIGroupDefinition = {
  name: networkingGroup,
  resources: networkingResources,
  tablePrinters: networkingTablePrinters,
};
