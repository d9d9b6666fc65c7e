// The named printers of PriorityClass's Table columns, as kubectl's server-side
// printPriorityClass (k8s pkg/printers/internalversion/printers.go).
import type { TablePrinter } from '../types.js';
import { bool, str } from '../table-cells.js';

export const schedulingTablePrinters: Readonly<Record<string, TablePrinter>> = {
  globalDefault: (o) => bool(o['globalDefault'], false),
  preemptionPolicy: (o) => str(o['preemptionPolicy']) || 'PreemptLowerPriority',
};
