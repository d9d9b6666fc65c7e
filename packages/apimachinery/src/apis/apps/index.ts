// The apps group (upstream pkg/apis/apps): Deployment, ReplicaSet, StatefulSet, DaemonSet,
// ControllerRevision.
import type { APIGroupDefinition } from '../types.js';
import { appsTablePrinters } from './printers.js';
import { appsDefaulters } from './defaults.js';
import { appsResources } from './resources.js';

export const apps: APIGroupDefinition = {
  name: 'apps',
  resources: appsResources,
  defaulters: appsDefaulters,
  tablePrinters: appsTablePrinters,
};
