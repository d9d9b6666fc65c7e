// flowcontrol.apiserver.orch.io (upstream pkg/apis/flowcontrol): FlowSchema and
// PriorityLevelConfiguration, in v1 and v1beta3.
import type { APIGroupDefinition } from '../types.js';
import { addFlowcontrolConversions, defaultV1beta3PriorityLevel } from './conversion.js';
import { flowcontrolTablePrinters } from './printers.js';
import { flowcontrolGroup, flowcontrolResources } from './resources.js';

export const flowcontrol: APIGroupDefinition = {
  name: flowcontrolGroup,
  resources: flowcontrolResources,
  defaulters: [
    ['orch.api.flowcontrol.v1beta3.PriorityLevelConfiguration', defaultV1beta3PriorityLevel],
  ],
  addConversions: addFlowcontrolConversions,
  tablePrinters: flowcontrolTablePrinters,
};
