// The batch group (upstream pkg/apis/batch): Job and CronJob.
import type { APIGroupDefinition } from '../types.js';
import { batchTablePrinters } from './printers.js';
import { batchDefaulters } from './defaults.js';
import { batchResources } from './resources.js';

export const batch: APIGroupDefinition = {
  name: 'batch',
  resources: batchResources,
  defaulters: batchDefaulters,
  tablePrinters: batchTablePrinters,
};
