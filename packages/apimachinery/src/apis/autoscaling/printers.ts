// The named printers of HorizontalPodAutoscaler's Table columns, as kubectl's server-side
// printHorizontalPodAutoscaler (k8s pkg/printers/internalversion/printers.go, formatHPAMetrics).
import type { TablePrinter } from '../types.js';
import { arr, at, str } from '../table-cells.js';
import { hpaV1ToV2 } from './conversion.js';

type Json = Record<string, unknown>;

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

export const autoscalingTablePrinters: Readonly<Record<string, TablePrinter>> = {
  hpaReference: (o) =>
    `${str(at(o, 'spec.scaleTargetRef.kind'))}/${str(at(o, 'spec.scaleTargetRef.name'))}`,
  hpaTargets: (o) => hpaTargets(o),
  hpaMinPods: (o) => {
    const min = at(o, 'spec.minReplicas');
    return typeof min === 'number' ? String(min) : '<unset>';
  },
};
