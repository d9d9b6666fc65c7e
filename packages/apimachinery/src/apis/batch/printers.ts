// The named printers of the batch kinds' Table columns, cell for cell as kubectl's server-side
// printers (k8s pkg/printers/internalversion/printers.go: printJob, printCronJob).
import type { TablePrinter } from '../types.js';
import {
  arr,
  at,
  containerImages,
  containerNames,
  formatLabelSelector,
  humanDuration,
  num,
  since,
  str,
} from '../table-cells.js';

type Json = Record<string, unknown>;

const hasCondition = (o: Json, type: string): boolean =>
  arr(at(o, 'status.conditions')).some((c) => c['type'] === type && c['status'] === 'True');

export const batchTablePrinters: Readonly<Record<string, TablePrinter>> = {
  jobStatus: (o) => {
    if (hasCondition(o, 'Complete')) return 'Complete';
    if (hasCondition(o, 'Failed')) return 'Failed';
    if (at(o, 'metadata.deletionTimestamp')) return 'Terminating';
    if (hasCondition(o, 'Suspended')) return 'Suspended';
    if (hasCondition(o, 'FailureTarget')) return 'FailureTarget';
    if (hasCondition(o, 'SuccessCriteriaMet')) return 'SuccessCriteriaMet';
    return 'Running';
  },
  jobCompletions: (o) => {
    const succeeded = num(at(o, 'status.succeeded'));
    const completions = at(o, 'spec.completions');
    if (typeof completions === 'number') return `${succeeded}/${completions}`;
    const parallelism = num(at(o, 'spec.parallelism'));
    return parallelism > 1 ? `${succeeded}/1 of ${parallelism}` : `${succeeded}/1`;
  },
  jobDuration: (o, now) => {
    const start = Date.parse(str(at(o, 'status.startTime')));
    if (Number.isNaN(start)) return '';
    const end = Date.parse(str(at(o, 'status.completionTime')));
    return humanDuration((Number.isNaN(end) ? now : end) - start);
  },
  cronJobTimeZone: (o) => str(at(o, 'spec.timeZone')) || '<none>',
  cronJobSuspend: (o) => {
    const s = at(o, 'spec.suspend');
    return typeof s === 'boolean' ? (s ? 'True' : 'False') : '<unset>';
  },
  cronJobActive: (o) => arr(at(o, 'status.active')).length,
  cronJobLastSchedule: (o, now) => {
    const t = at(o, 'status.lastScheduleTime');
    return t === undefined || t === null ? '<none>' : since(t, now);
  },
  jobTemplateContainers: (o) => containerNames(at(o, 'spec.jobTemplate.spec.template.spec')),
  jobTemplateImages: (o) => containerImages(at(o, 'spec.jobTemplate.spec.template.spec')),
  jobTemplateSelector: (o) => formatLabelSelector(at(o, 'spec.jobTemplate.spec.selector')),
};
