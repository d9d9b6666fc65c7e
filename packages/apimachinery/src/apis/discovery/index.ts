// discovery.orch.io (upstream pkg/apis/discovery): EndpointSlice.
import type { APIGroupDefinition } from '../types.js';
import { discoveryTablePrinters } from './printers.js';
import { discoveryGroup, discoveryResources } from './resources.js';

export const discovery: APIGroupDefinition = {
  name: discoveryGroup,
  resources: discoveryResources,
  tablePrinters: discoveryTablePrinters,
};
