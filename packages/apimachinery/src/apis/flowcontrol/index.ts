// flowcontrol.apiserver.orch.io (upstream pkg/apis/flowcontrol): FlowSchema and
// PriorityLevelConfiguration.
import type { APIGroupDefinition } from '../types.js';
import { flowcontrolTablePrinters } from './printers.js';
import { flowcontrolGroup, flowcontrolResources } from './resources.js';

export const flowcontrol: APIGroupDefinition = {
  name: flowcontrolGroup,
  resources: flowcontrolResources,
  tablePrinters: flowcontrolTablePrinters,
};
