// The named printers of the workload and autoscaling kinds' Table columns, as kubectl's
// (k8s pkg/printers/internalversion/printers.go: printPodTemplate, printReplicationController,
// printEndpoints, printStatefulSet, printDaemonSet, printControllerRevision, printJob,
// printCronJob, printHorizontalPodAutoscaler, printPodDisruptionBudget).
import { hpaV1ToV2 } from '../apis/autoscaling/conversion.js';

type Json = Record<string, unknown>;
type Printer = (obj: Json, now: number) => unknown;

const at = (obj: unknown, path: string): unknown => {
  let cur: unknown = obj;
  for (const part of path.split('.')) {
    if (typeof cur !== 'object' || cur === null) return undefined;
    cur = (cur as Json)[part];
  }
  return cur;
};
const arr = (v: unknown): Json[] => (Array.isArray(v) ? (v as Json[]) : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const num = (v: unknown): number => (typeof v === 'number' ? v : 0);

/** labels.FormatLabels: k=v pairs sorted by key, "<none>" when empty. */
export function formatLabels(labels: unknown): string {
  const entries = Object.entries((labels ?? {}) as Record<string, string>).sort(([a], [b]) =>
    a < b ? -1 : a > b ? 1 : 0
  );
  return entries.length > 0 ? entries.map(([k, v]) => `${k}=${v}`).join(',') : '<none>';
}

/** metav1.FormatLabelSelector. */
function formatLabelSelector(sel: unknown): string {
  if (typeof sel !== 'object' || sel === null) return '<none>';
  const s = sel as Json;
  const parts = Object.entries((s['matchLabels'] ?? {}) as Record<string, string>).map(
    ([k, v]) => `${k}=${v}`
  );
  for (const e of arr(s['matchExpressions'])) {
    const values = arr(e['values']).map(String).join(',');
    const op = str(e['operator']);
    if (op === 'In') parts.push(`${str(e['key'])} in (${values})`);
    else if (op === 'NotIn') parts.push(`${str(e['key'])} notin (${values})`);
    else if (op === 'Exists') parts.push(str(e['key']));
    else if (op === 'DoesNotExist') parts.push(`!${str(e['key'])}`);
  }
  return parts.length > 0 ? parts.join(',') : '<none>';
}

/** duration.HumanDuration, passed in to keep one implementation (to-table.ts). */
export type HumanDuration = (ms: number) => string;

const containers = (spec: unknown): string =>
  arr(at(spec, 'containers'))
    .map((c) => str(c['name']))
    .join(',') || '<none>';
const images = (spec: unknown): string =>
  arr(at(spec, 'containers'))
    .map((c) => str(c['image']))
    .join(',') || '<none>';

/** formatEndpoints: the first three ip:port pairs, then "+ N more...". */
function formatEndpoints(o: Json): string {
  const subsets = arr(o['subsets']);
  if (subsets.length === 0) return '<none>';
  const list: string[] = [];
  const max = 3;
  let more = false;
  let count = 0;
  const add = (entry: string): void => {
    if (list.length === max) more = true;
    else list.push(entry);
  };
  for (const ss of subsets) {
    const addresses = arr(ss['addresses']);
    const ports = arr(ss['ports']);
    if (ports.length === 0) {
      count += addresses.length;
      for (const a of addresses) add(str(a['ip']));
      continue;
    }
    for (const p of ports) {
      count += addresses.length;
      for (const a of addresses) {
        const ip = str(a['ip']);
        add(`${ip.includes(':') ? `[${ip}]` : ip}:${num(p['port'])}`);
      }
    }
  }
  const ret = list.join(',');
  return more ? `${ret} + ${count - max} more...` : ret;
}

const hasCondition = (o: Json, type: string): boolean =>
  arr(at(o, 'status.conditions')).some((c) => c['type'] === type && c['status'] === 'True');

/** The Targets cell: formatHPAMetrics over the v2 form of the object. */
function hpaTargets(o: Json): string {
  const hpa = o['apiVersion'] === 'autoscaling/v1' ? hpaV1ToV2(o) : o;
  const specs = arr(at(hpa, 'spec.metrics'));
  const statuses = arr(at(hpa, 'status.currentMetrics'));
  if (specs.length === 0) return '<none>';
  const list: string[] = [];
  const max = 3;
  specs.forEach((spec, i) => {
    const status = statuses[i];
    const unknown = '<unknown>';
    switch (spec['type']) {
      case 'External': {
        const target = (at(spec, 'external.target') ?? {}) as Json;
        if (target['averageValue'] !== undefined) {
          const cur = status?.['external'] ? str(at(status, 'external.current.averageValue')) : '';
          list.push(`${cur || unknown}/${str(target['averageValue'])} (avg)`);
        } else {
          const cur = status?.['external'] ? str(at(status, 'external.current.value')) : '';
          list.push(`${cur || unknown}/${str(target['value'])}`);
        }
        break;
      }
      case 'Pods': {
        const cur = status?.['pods'] ? str(at(status, 'pods.current.averageValue')) : '';
        list.push(`${cur || unknown}/${str(at(spec, 'pods.target.averageValue'))}`);
        break;
      }
      case 'Object': {
        const target = (at(spec, 'object.target') ?? {}) as Json;
        if (target['averageValue'] !== undefined) {
          const cur = status?.['object'] ? str(at(status, 'object.current.averageValue')) : '';
          list.push(`${cur || unknown}/${str(target['averageValue'])} (avg)`);
        } else {
          const cur = status?.['object'] ? str(at(status, 'object.current.value')) : '';
          list.push(`${cur || unknown}/${str(target['value'])}`);
        }
        break;
      }
      case 'Resource':
      case 'ContainerResource': {
        const key = spec['type'] === 'Resource' ? 'resource' : 'containerResource';
        const name = str(at(spec, `${key}.name`));
        const target = (at(spec, `${key}.target`) ?? {}) as Json;
        const prefix = key === 'resource' ? name : `${name}/${str(at(spec, `${key}.container`))}`;
        if (target['averageValue'] !== undefined) {
          const cur = status?.[key] ? str(at(status, `${key}.current.averageValue`)) : '';
          list.push(`${prefix}: ${cur || unknown}/${str(target['averageValue'])}`);
        } else {
          const u = status?.[key] ? at(status, `${key}.current.averageUtilization`) : undefined;
          const cur = typeof u === 'number' ? `${u}%` : unknown;
          const t = target['averageUtilization'];
          list.push(`${prefix}: ${cur}/${typeof t === 'number' ? `${t}%` : '<auto>'}`);
        }
        break;
      }
      default:
        list.push('<unknown type>');
    }
  });
  const ret = list.slice(0, max).join(', ');
  return list.length > max ? `${ret} + ${list.length - max} more...` : ret;
}

const intOrString = (v: unknown): string =>
  typeof v === 'number' ? String(v) : typeof v === 'string' ? v : 'N/A';

/** The printers, given the shared humanDuration (durations and ages). */
export function workloadPrinters(humanDuration: HumanDuration): Record<string, Printer> {
  const since = (ts: unknown, now: number): string => {
    const t = Date.parse(str(ts));
    return Number.isNaN(t) ? '<unknown>' : humanDuration(now - t);
  };
  return {
    podTemplateContainers: (o) => containers(at(o, 'template.spec')),
    podTemplateImages: (o) => images(at(o, 'template.spec')),
    podTemplateLabels: (o) => formatLabels(at(o, 'template.metadata.labels')),
    mapSelector: (o) => formatLabels(at(o, 'spec.selector')),
    endpoints: (o) => formatEndpoints(o),
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
    jobTemplateContainers: (o) => containers(at(o, 'spec.jobTemplate.spec.template.spec')),
    jobTemplateImages: (o) => images(at(o, 'spec.jobTemplate.spec.template.spec')),
    jobTemplateSelector: (o) => formatLabelSelector(at(o, 'spec.jobTemplate.spec.selector')),
    hpaReference: (o) =>
      `${str(at(o, 'spec.scaleTargetRef.kind'))}/${str(at(o, 'spec.scaleTargetRef.name'))}`,
    hpaTargets: (o) => hpaTargets(o),
    hpaMinPods: (o) => {
      const min = at(o, 'spec.minReplicas');
      return typeof min === 'number' ? String(min) : '<unset>';
    },
    pdbMinAvailable: (o) => intOrString(at(o, 'spec.minAvailable')),
    pdbMaxUnavailable: (o) => intOrString(at(o, 'spec.maxUnavailable')),
  };
}
