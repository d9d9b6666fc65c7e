// The named printers of the flowcontrol kinds' Table columns, as kubectl's server-side
// printFlowSchema and printPriorityLevelConfiguration (k8s
// pkg/printers/internalversion/printers.go).
import type { TablePrinter } from '../types.js';
import { arr, at, str } from '../table-cells.js';

type Json = Record<string, unknown>;

const limitedField = (o: Json, field: string): unknown => {
  const limited = at(o, 'spec.limited') as Json | undefined;
  if (!limited) return '<none>';
  if (field === 'nominalConcurrencyShares') return limited[field] ?? 0;
  const queuing = at(limited, 'limitResponse.queuing') as Json | undefined;
  return queuing ? (queuing[field] ?? 0) : '<none>';
};

export const flowcontrolTablePrinters: Readonly<Record<string, TablePrinter>> = {
  matchingPrecedence: (o) => at(o, 'spec.matchingPrecedence') ?? 0,
  distinguisherMethod: (o) => str(at(o, 'spec.distinguisherMethod.type')) || '<none>',
  missingPriorityLevel: (o) => {
    const c = arr(at(o, 'status.conditions')).find((x) => x['type'] === 'Dangling');
    return c ? str(c['status']) : '?';
  },
  plNominalConcurrencyShares: (o) => limitedField(o, 'nominalConcurrencyShares'),
  plQueues: (o) => limitedField(o, 'queues'),
  plHandSize: (o) => limitedField(o, 'handSize'),
  plQueueLengthLimit: (o) => limitedField(o, 'queueLengthLimit'),
};
