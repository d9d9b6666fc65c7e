// The named printers of the apps kinds' Table columns, cell for cell as kubectl's server-side
// printers (k8s pkg/printers/internalversion/printers.go: printDeployment, printStatefulSet,
// printDaemonSet, printControllerRevision). Their Containers, Images and Selector columns use
// the shared printers of schema-model/to-table.ts.
import type { TablePrinter } from '../types.js';
import { arr, at, formatLabels, num, str } from '../table-cells.js';

export const appsTablePrinters: Readonly<Record<string, TablePrinter>> = {
  deploymentReady: (o) =>
    `${num(at(o, 'status.readyReplicas'))}/${typeof at(o, 'spec.replicas') === 'number' ? num(at(o, 'spec.replicas')) : 1}`,
  deploymentUpdated: (o) => num(at(o, 'status.updatedReplicas')),
  deploymentAvailable: (o) => num(at(o, 'status.availableReplicas')),
  statefulSetReady: (o) => `${num(at(o, 'status.readyReplicas'))}/${num(at(o, 'spec.replicas'))}`,
  templateNodeSelector: (o) => formatLabels(at(o, 'spec.template.spec.nodeSelector')),
  controllerRevisionController: (o) => {
    const ref = arr(at(o, 'metadata.ownerReferences')).find((r) => r['controller'] === true);
    if (!ref) return '<none>';
    const apiVersion = str(ref['apiVersion']);
    const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
    const kind = group ? `${str(ref['kind'])}.${group}` : str(ref['kind']);
    return `${kind.toLowerCase()}/${str(ref['name'])}`;
  },
};
