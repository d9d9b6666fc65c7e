// The core group, v1 (upstream pkg/apis/core): the kinds served under /api/v1.
import type { APIGroupDefinition } from '../types.js';
import { coreTablePrinters } from './printers.js';
import { coreDefaulters } from './defaults.js';
import { coreResources } from './resources.js';

export const core: APIGroupDefinition = {
  name: '',
  resources: coreResources,
  defaulters: coreDefaulters,
  tablePrinters: coreTablePrinters,
};
export { imageTag } from './defaults.js';
