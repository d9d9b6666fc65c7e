// scheduling.orch.io (upstream pkg/apis/scheduling): PriorityClass.
import type { APIGroupDefinition } from '../types.js';
import { schedulingTablePrinters } from './printers.js';
import { schedulingGroup, schedulingResources } from './resources.js';

export const scheduling: APIGroupDefinition = {
  name: schedulingGroup,
  resources: schedulingResources,
  tablePrinters: schedulingTablePrinters,
};
