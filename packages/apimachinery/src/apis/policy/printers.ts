// The named printers of PodDisruptionBudget's Table columns, as kubectl's server-side
// printPodDisruptionBudget (k8s pkg/printers/internalversion/printers.go).
import type { TablePrinter } from '../types.js';
import { at } from '../table-cells.js';

const intOrString = (v: unknown): string =>
  typeof v === 'number' ? String(v) : typeof v === 'string' ? v : 'N/A';

export const policyTablePrinters: Readonly<Record<string, TablePrinter>> = {
  pdbMinAvailable: (o) => intOrString(at(o, 'spec.minAvailable')),
  pdbMaxUnavailable: (o) => intOrString(at(o, 'spec.maxUnavailable')),
};
