// The named printers of EndpointSlice's Table columns, as kubectl's server-side
// printEndpointSlice (k8s pkg/printers/internalversion/printers.go).
import type { TablePrinter } from '../types.js';
import { arr, str } from '../table-cells.js';

/** listWithMoreString: up to three values, then "+ N more...", "<unset>" when none. */
function listWithMore(values: string[], max = 3): string {
  const shown = values.slice(0, max).join(',');
  if (values.length > max) return `${shown} + ${values.length - max} more...`;
  return shown === '' ? '<unset>' : shown;
}

export const discoveryTablePrinters: Readonly<Record<string, TablePrinter>> = {
  endpointSlicePorts: (o) =>
    listWithMore(
      arr(o['ports']).map((p) =>
        typeof p['port'] === 'number' ? String(p['port']) : str(p['name']) || '*'
      )
    ),
  endpointSliceEndpoints: (o) =>
    listWithMore(arr(o['endpoints']).flatMap((e) => arr(e['addresses']).map(String))),
};
