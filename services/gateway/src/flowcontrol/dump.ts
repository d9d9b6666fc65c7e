// The debug dumps (k8s apf_controller_debug.go): /debug/api_priority_and_fairness/
// dump_priority_levels, dump_queues and dump_requests, as upstream's comma-separated tables
// with a header row.
import type { ApfController } from './apf-controller.js';

const table = (header: string[], rows: (string | number | boolean)[][]): string =>
  [header, ...rows].map((r) => r.join(', ')).join('\n') + '\n';

export function dumpPriorityLevels(c: ApfController): string {
  const rows = [...c.levels].map(([name, l]) => {
    const q = l.queues;
    return [
      name,
      q ? q.queueRows().filter((r) => r.waiting > 0 || r.executing > 0).length : 0,
      q ? q.isIdle() : l.exemptExecuting === 0,
      false,
      q?.totRequestsWaiting ?? 0,
      q?.totRequestsExecuting ?? l.exemptExecuting,
      q?.totRequestsDispatched ?? 0,
      q?.totRequestsRejected ?? 0,
      q?.totRequestsTimedOut ?? 0,
      q?.totRequestsCancelled ?? 0,
    ];
  });
  return table(
    [
      'PriorityLevelName',
      'ActiveQueues',
      'IsIdle',
      'IsQuiescing',
      'WaitingRequests',
      'ExecutingRequests',
      'DispatchedRequests',
      'RejectedRequests',
      'TimedoutRequests',
      'CancelledRequests',
    ],
    rows
  );
}

export function dumpQueues(c: ApfController): string {
  const rows = [...c.levels].flatMap(([name, l]) =>
    (l.queues?.queueRows() ?? []).map((q) => [
      name,
      q.index,
      q.waiting,
      q.executing,
      q.seatsInUse,
      q.nextDispatchR.toFixed(8) + 'ss',
    ])
  );
  return table(
    [
      'PriorityLevelName',
      'Index',
      'PendingRequests',
      'ExecutingRequests',
      'SeatsInUse',
      'NextDispatchR',
    ],
    rows
  );
}

export function dumpRequests(c: ApfController, now = performance.now(), wall = Date.now()): string {
  const at = (ms: number): string => new Date(wall - (now - ms)).toISOString();
  const rows = [...c.levels].flatMap(([name, l]) =>
    (l.queues?.waitingRequests() ?? []).map((r, i) => [
      name,
      r.flowSchema,
      r.queue?.index ?? -1,
      i,
      r.distinguisher,
      at(r.arrivalMs),
      r.work.initialSeats,
      r.work.finalSeats,
      `${r.work.additionalLatencyMs}ms`,
    ])
  );
  return table(
    [
      'PriorityLevelName',
      'FlowSchemaName',
      'QueueIndex',
      'RequestIndexInQueue',
      'FlowDistingsher',
      'ArriveTime',
      'InitialSeats',
      'FinalSeats',
      'AdditionalLatency',
    ],
    rows
  );
}
