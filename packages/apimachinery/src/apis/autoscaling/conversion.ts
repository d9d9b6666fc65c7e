// HorizontalPodAutoscaler between autoscaling/v1 and v2, as upstream converts it
// (pkg/apis/autoscaling/v1/conversion.go, through the internal version that v2 mirrors): v1
// holds one CPU utilization target; every other metric, the current metrics, the conditions and
// the scaling behavior are kept in the autoscaling.alpha.kubernetes.io annotations of a v1
// object (JSON in v1's metric format), so v2 → v1 → v2 loses nothing. As upstream: a v1 object
// with no metric at all gets the 80% CPU target; the CPU metric goes last when other metrics
// come back from the annotation; an object or external metric without a value reads "0".
import type { Conversions } from '../../registry/conversion.js';

type Json = Record<string, unknown>;

/** autoscaling.MetricSpecsAnnotation and its siblings (pkg/apis/autoscaling/annotations.go). */
export const hpaMetricSpecsAnnotation = 'autoscaling.alpha.kubernetes.io/metrics';
export const hpaMetricStatusesAnnotation = 'autoscaling.alpha.kubernetes.io/current-metrics';
export const hpaConditionsAnnotation = 'autoscaling.alpha.kubernetes.io/conditions';
export const hpaBehaviorAnnotation = 'autoscaling.alpha.kubernetes.io/behavior';
/** autoscaling.DefaultCPUUtilization. */
export const defaultCpuUtilization = 80;

/**
 * The annotations a v1 HorizontalPodAutoscaler carries its v2 fields in: added when it is read
 * in v1, dropped when it is written (the stored object, which validation sees, has none).
 */
const roundTripAnnotations: readonly string[] = [
  hpaMetricSpecsAnnotation,
  hpaMetricStatusesAnnotation,
  hpaConditionsAnnotation,
  hpaBehaviorAnnotation,
];

const obj = (v: unknown): Json | undefined =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : undefined;
const list = (v: unknown): Json[] => (Array.isArray(v) ? (v as Json[]) : []);
/** A copy without the keys whose value is undefined (as Go's omitempty on nil pointers). */
const compact = (o: Json): Json =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

/** DropRoundTripHorizontalPodAutoscalerAnnotations: metadata without the four annotations. */
export function dropHpaRoundTripAnnotations(meta: Json): Json {
  const annotations = obj(meta['annotations']);
  if (!annotations || !roundTripAnnotations.some((a) => a in annotations)) return meta;
  const kept = Object.fromEntries(
    Object.entries(annotations).filter(([k]) => !roundTripAnnotations.includes(k))
  );
  const out = { ...meta };
  if (Object.keys(kept).length > 0) out['annotations'] = kept;
  else delete out['annotations'];
  return out;
}

const isCpuUtilization = (m: Json): boolean => {
  const r = obj(m['resource']);
  return (
    m['type'] === 'Resource' &&
    r?.['name'] === 'cpu' &&
    obj(r['target'])?.['averageUtilization'] !== undefined
  );
};

// ---- metric specs: v2 (internal) ⇄ v1's annotation format ----

function metricSpecToV1(m: Json): Json {
  const out: Json = { type: m['type'] };
  const object = obj(m['object']);
  if (object) {
    const target = obj(object['target']) ?? {};
    const metric = obj(object['metric']) ?? {};
    out['object'] = compact({
      target: object['describedObject'] ?? {},
      metricName: metric['name'] ?? '',
      targetValue: target['value'] ?? '0',
      selector: metric['selector'],
      averageValue: target['averageValue'],
    });
  }
  const pods = obj(m['pods']);
  if (pods) {
    const target = obj(pods['target']) ?? {};
    const metric = obj(pods['metric']) ?? {};
    out['pods'] = compact({
      metricName: metric['name'] ?? '',
      targetAverageValue: target['averageValue'] ?? '0',
      selector: metric['selector'],
    });
  }
  const resource = obj(m['resource']);
  if (resource) {
    const target = obj(resource['target']) ?? {};
    out['resource'] = compact({
      name: resource['name'] ?? '',
      targetAverageUtilization: target['averageUtilization'],
      targetAverageValue: target['averageValue'],
    });
  }
  const container = obj(m['containerResource']);
  if (container) {
    const target = obj(container['target']) ?? {};
    out['containerResource'] = compact({
      name: container['name'] ?? '',
      targetAverageUtilization: target['averageUtilization'],
      targetAverageValue: target['averageValue'],
      container: container['container'] ?? '',
    });
  }
  const external = obj(m['external']);
  if (external) {
    const target = obj(external['target']) ?? {};
    const metric = obj(external['metric']) ?? {};
    out['external'] = compact({
      metricName: metric['name'] ?? '',
      metricSelector: metric['selector'],
      targetValue: target['value'],
      targetAverageValue: target['averageValue'],
    });
  }
  return out;
}

function metricSpecFromV1(m: Json): Json {
  const out: Json = { type: m['type'] };
  const object = obj(m['object']);
  if (object) {
    out['object'] = {
      describedObject: object['target'] ?? {},
      metric: compact({ name: object['metricName'] ?? '', selector: object['selector'] }),
      target: compact({
        type: object['averageValue'] !== undefined ? 'AverageValue' : 'Value',
        value: object['targetValue'] ?? '0',
        averageValue: object['averageValue'],
      }),
    };
  }
  const pods = obj(m['pods']);
  if (pods) {
    out['pods'] = {
      metric: compact({ name: pods['metricName'] ?? '', selector: pods['selector'] }),
      target: { type: 'AverageValue', averageValue: pods['targetAverageValue'] ?? '0' },
    };
  }
  for (const key of ['resource', 'containerResource'] as const) {
    const r = obj(m[key]);
    if (!r) continue;
    const utilization = r['targetAverageUtilization'];
    out[key] = compact({
      name: r['name'] ?? '',
      container: key === 'containerResource' ? (r['container'] ?? '') : undefined,
      target: compact({
        type: utilization === undefined ? 'AverageValue' : 'Utilization',
        averageValue: r['targetAverageValue'],
        averageUtilization: utilization,
      }),
    });
  }
  const external = obj(m['external']);
  if (external) {
    out['external'] = {
      metric: compact({ name: external['metricName'] ?? '', selector: external['metricSelector'] }),
      target: compact({
        type: external['targetAverageValue'] !== undefined ? 'AverageValue' : 'Value',
        value: external['targetValue'],
        averageValue: external['targetAverageValue'],
      }),
    };
  }
  return out;
}

// ---- metric statuses ----

function metricStatusToV1(m: Json): Json {
  const out: Json = { type: m['type'] };
  const object = obj(m['object']);
  if (object) {
    const current = obj(object['current']) ?? {};
    const metric = obj(object['metric']) ?? {};
    out['object'] = compact({
      target: object['describedObject'] ?? {},
      metricName: metric['name'] ?? '',
      currentValue: current['value'] ?? '0',
      selector: metric['selector'],
      averageValue: current['averageValue'],
    });
  }
  const pods = obj(m['pods']);
  if (pods) {
    const current = obj(pods['current']) ?? {};
    const metric = obj(pods['metric']) ?? {};
    out['pods'] = compact({
      metricName: metric['name'] ?? '',
      currentAverageValue: current['averageValue'] ?? '0',
      selector: metric['selector'],
    });
  }
  for (const key of ['resource', 'containerResource'] as const) {
    const r = obj(m[key]);
    if (!r) continue;
    const current = obj(r['current']) ?? {};
    out[key] = compact({
      name: r['name'] ?? '',
      currentAverageUtilization: current['averageUtilization'],
      currentAverageValue: current['averageValue'] ?? '0',
      container: key === 'containerResource' ? (r['container'] ?? '') : undefined,
    });
  }
  const external = obj(m['external']);
  if (external) {
    const current = obj(external['current']) ?? {};
    const metric = obj(external['metric']) ?? {};
    out['external'] = compact({
      metricName: metric['name'] ?? '',
      metricSelector: metric['selector'],
      currentValue: current['value'] ?? '0',
      currentAverageValue: current['averageValue'],
    });
  }
  return out;
}

function metricStatusFromV1(m: Json): Json {
  const out: Json = { type: m['type'] };
  const object = obj(m['object']);
  if (object) {
    out['object'] = {
      describedObject: object['target'] ?? {},
      metric: compact({ name: object['metricName'] ?? '', selector: object['selector'] }),
      current: compact({
        value: object['currentValue'] ?? '0',
        averageValue: object['averageValue'],
      }),
    };
  }
  const pods = obj(m['pods']);
  if (pods) {
    out['pods'] = {
      metric: compact({ name: pods['metricName'] ?? '', selector: pods['selector'] }),
      current: { averageValue: pods['currentAverageValue'] ?? '0' },
    };
  }
  for (const key of ['resource', 'containerResource'] as const) {
    const r = obj(m[key]);
    if (!r) continue;
    out[key] = compact({
      name: r['name'] ?? '',
      container: key === 'containerResource' ? (r['container'] ?? '') : undefined,
      current: compact({
        averageValue: r['currentAverageValue'] ?? '0',
        averageUtilization: r['currentAverageUtilization'],
      }),
    });
  }
  const external = obj(m['external']);
  if (external) {
    out['external'] = {
      metric: compact({ name: external['metricName'] ?? '', selector: external['metricSelector'] }),
      current: compact({
        value: external['currentValue'] ?? '0',
        averageValue: external['currentAverageValue'],
      }),
    };
  }
  return out;
}

const parseAnnotation = (annotations: Json | undefined, key: string): unknown => {
  const text = annotations?.[key];
  if (typeof text !== 'string') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
};

/** Convert_autoscaling_HorizontalPodAutoscaler_To_v1_HorizontalPodAutoscaler. */
export function hpaV2ToV1(hpa: Json): Json {
  const meta = dropHpaRoundTripAnnotations(structuredClone(obj(hpa['metadata']) ?? {}));
  const spec = obj(hpa['spec']) ?? {};
  const status = obj(hpa['status']);
  const metrics = list(spec['metrics']);
  const cpu = metrics.find(isCpuUtilization);
  const annotations: Record<string, string> = {};
  const other = metrics.filter((m) => !isCpuUtilization(m)).map(metricSpecToV1);
  if (other.length > 0) annotations[hpaMetricSpecsAnnotation] = JSON.stringify(other);
  const currentMetrics = list(status?.['currentMetrics']);
  if (currentMetrics.length > 0) {
    annotations[hpaMetricStatusesAnnotation] = JSON.stringify(currentMetrics.map(metricStatusToV1));
  }
  if (spec['behavior'] !== undefined) {
    annotations[hpaBehaviorAnnotation] = JSON.stringify(spec['behavior']);
  }
  const conditions = list(status?.['conditions']);
  if (conditions.length > 0) annotations[hpaConditionsAnnotation] = JSON.stringify(conditions);
  if (Object.keys(annotations).length > 0) {
    meta['annotations'] = { ...(obj(meta['annotations']) ?? {}), ...annotations };
  }
  const out: Json = {
    apiVersion: 'autoscaling/v1',
    kind: 'HorizontalPodAutoscaler',
    metadata: meta,
    spec: compact({
      scaleTargetRef: spec['scaleTargetRef'],
      minReplicas: spec['minReplicas'],
      maxReplicas: spec['maxReplicas'],
      targetCPUUtilizationPercentage: obj(obj(cpu?.['resource'])?.['target'])?.[
        'averageUtilization'
      ],
    }),
  };
  if (status) {
    const cpuStatus = currentMetrics.find(
      (m) => m['type'] === 'Resource' && obj(m['resource'])?.['name'] === 'cpu'
    );
    out['status'] = compact({
      observedGeneration: status['observedGeneration'],
      lastScaleTime: status['lastScaleTime'],
      currentReplicas: status['currentReplicas'] ?? 0,
      desiredReplicas: status['desiredReplicas'] ?? 0,
      currentCPUUtilizationPercentage: obj(obj(cpuStatus?.['resource'])?.['current'])?.[
        'averageUtilization'
      ],
    });
  }
  return out;
}

/** Convert_v1_HorizontalPodAutoscaler_To_autoscaling_HorizontalPodAutoscaler. */
export function hpaV1ToV2(hpa: Json): Json {
  const inMeta = obj(hpa['metadata']) ?? {};
  const annotations = obj(inMeta['annotations']);
  const spec = obj(hpa['spec']) ?? {};
  const status = obj(hpa['status']);
  let metrics: Json[] = [];
  const cpu = spec['targetCPUUtilizationPercentage'];
  if (cpu !== undefined && cpu !== null) {
    metrics.push({
      type: 'Resource',
      resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: cpu } },
    });
  }
  const other = parseAnnotation(annotations, hpaMetricSpecsAnnotation);
  if (Array.isArray(other)) metrics = [...list(other).map(metricSpecFromV1), ...metrics];
  if (metrics.length === 0) {
    metrics = [
      {
        type: 'Resource',
        resource: {
          name: 'cpu',
          target: { type: 'Utilization', averageUtilization: defaultCpuUtilization },
        },
      },
    ];
  }
  const behavior = parseAnnotation(annotations, hpaBehaviorAnnotation);
  const out: Json = {
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: dropHpaRoundTripAnnotations(structuredClone(inMeta)),
    spec: compact({
      scaleTargetRef: spec['scaleTargetRef'],
      minReplicas: spec['minReplicas'],
      maxReplicas: spec['maxReplicas'],
      metrics,
      behavior: obj(behavior) ? behavior : undefined,
    }),
  };
  if (status) {
    let currentMetrics: Json[] | undefined;
    const currentCpu = status['currentCPUUtilizationPercentage'];
    if (currentCpu !== undefined && currentCpu !== null) {
      currentMetrics = [
        {
          type: 'Resource',
          resource: { name: 'cpu', current: { averageUtilization: currentCpu } },
        },
      ];
    }
    // The annotation holds every current metric: it replaces what the CPU field gave.
    const current = parseAnnotation(annotations, hpaMetricStatusesAnnotation);
    if (Array.isArray(current)) currentMetrics = list(current).map(metricStatusFromV1);
    const conditions = parseAnnotation(annotations, hpaConditionsAnnotation);
    out['status'] = compact({
      observedGeneration: status['observedGeneration'],
      lastScaleTime: status['lastScaleTime'],
      currentReplicas: status['currentReplicas'] ?? 0,
      desiredReplicas: status['desiredReplicas'] ?? 0,
      currentMetrics,
      conditions: Array.isArray(conditions) ? conditions : undefined,
    });
  }
  return out;
}

/** Registers the HPA conversions, both ways (upstream's RegisterConversions of autoscaling/v1). */
export function addAutoscalingConversions(conversions: Conversions): void {
  const key = { group: 'autoscaling', kind: 'HorizontalPodAutoscaler' };
  conversions.register({ ...key, from: 'v1', to: 'v2' }, hpaV1ToV2);
  conversions.register({ ...key, from: 'v2', to: 'v1' }, hpaV2ToV1);
}
