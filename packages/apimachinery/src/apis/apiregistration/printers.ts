// The named printers of APIService's Table columns, as the aggregator's ConvertToTable (k8s
// kube-aggregator pkg/registry/apiservice/etcd/etcd.go).
import type { TablePrinter } from '../types.js';
import { arr, at, str } from '../table-cells.js';

export const apiregistrationTablePrinters: Readonly<Record<string, TablePrinter>> = {
  apiServiceService: (o) => {
    const name = str(at(o, 'spec.service.name'));
    const namespace = str(at(o, 'spec.service.namespace'));
    return at(o, 'spec.service') ? `${namespace}/${name}` : 'Local';
  },
  apiServiceAvailable: (o) => {
    const c = arr(at(o, 'status.conditions')).find((c) => str(c['type']) === 'Available');
    if (!c) return 'Unknown';
    const status = str(c['status']);
    const reason = str(c['reason']);
    return status !== 'True' && reason ? `${status} (${reason})` : status;
  },
};
