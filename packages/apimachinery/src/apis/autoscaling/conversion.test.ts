// HorizontalPodAutoscaler autoscaling/v1 ⇄ v2 as upstream converts it: every v2 field survives a
// trip through v1 (in the autoscaling.alpha.kubernetes.io annotations), every v1 field a trip
// through v2; and the conversion registry the Store converts with.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { realisticObjects } from '../../testdata/index.js';
import {
  hpaBehaviorAnnotation,
  hpaConditionsAnnotation,
  hpaMetricSpecsAnnotation,
  hpaMetricStatusesAnnotation,
  hpaV1ToV2,
  hpaV2ToV1,
} from './conversion.js';
import { builtinConversions } from '../index.js';
import { Conversions } from '../../registry/conversion.js';

const v2: any = realisticObjects['autoscaling/v2/HorizontalPodAutoscaler'];
const v1: any = realisticObjects['autoscaling/v1/HorizontalPodAutoscaler'];

test('v2 → v1 → v2 keeps every field (the CPU utilization metric last, as upstream puts it back)', () => {
  const before = structuredClone(v2);
  const down = hpaV2ToV1(v2);
  assert.deepEqual(v2, before, 'the input is not mutated');
  assert.deepEqual(hpaV1ToV2(down), v2);
});

test('v2 → v1: the CPU target and current utilization in v1 fields, the rest in the four annotations', () => {
  const down: any = hpaV2ToV1(v2);
  assert.equal(down.apiVersion, 'autoscaling/v1');
  assert.deepEqual(down.spec, {
    scaleTargetRef: { kind: 'Deployment', name: 'web', apiVersion: 'apps/v1' },
    minReplicas: 2,
    maxReplicas: 10,
    targetCPUUtilizationPercentage: 70,
  });
  assert.deepEqual(down.status, {
    observedGeneration: 3,
    lastScaleTime: '2024-05-01T10:00:00Z',
    currentReplicas: 4,
    desiredReplicas: 5,
    currentCPUUtilizationPercentage: 75,
  });
  const a = down.metadata.annotations;
  // v1's metric format (autoscaling/v1 MetricSpec), as upstream writes the annotation.
  assert.deepEqual(JSON.parse(a[hpaMetricSpecsAnnotation]), [
    { type: 'Resource', resource: { name: 'memory', targetAverageValue: '500Mi' } },
    { type: 'Pods', pods: { metricName: 'packets-per-second', targetAverageValue: '1k' } },
    {
      type: 'Object',
      object: {
        target: { kind: 'Ingress', name: 'main-route', apiVersion: 'networking.k8s.io/v1' },
        metricName: 'requests-per-second',
        targetValue: '10k',
        selector: { matchLabels: { verb: 'GET' } },
      },
    },
    {
      type: 'External',
      external: {
        metricName: 'queue_messages_ready',
        metricSelector: { matchLabels: { queue: 'jobs' } },
        targetAverageValue: '30',
      },
    },
    {
      type: 'ContainerResource',
      containerResource: { name: 'cpu', targetAverageUtilization: 60, container: 'app' },
    },
  ]);
  assert.equal(JSON.parse(a[hpaMetricStatusesAnnotation]).length, 6);
  assert.deepEqual(JSON.parse(a[hpaMetricStatusesAnnotation])[5], {
    type: 'Resource',
    resource: { name: 'cpu', currentAverageUtilization: 75, currentAverageValue: '350m' },
  });
  assert.deepEqual(JSON.parse(a[hpaBehaviorAnnotation]), v2.spec.behavior);
  assert.deepEqual(JSON.parse(a[hpaConditionsAnnotation]), v2.status.conditions);
});

test('v1 → v2 → v1 keeps every field', () => {
  const before = structuredClone(v1);
  const up: any = hpaV1ToV2(v1);
  assert.deepEqual(v1, before, 'the input is not mutated');
  assert.deepEqual(up.spec.metrics, [
    {
      type: 'Resource',
      resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 75 } },
    },
  ]);
  assert.deepEqual(up.status.currentMetrics, [
    { type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 90 } } },
  ]);
  const back: any = hpaV2ToV1(up);
  // As upstream, the current metrics (here the CPU one) are also written to their annotation.
  assert.deepEqual(JSON.parse(back.metadata.annotations[hpaMetricStatusesAnnotation]), [
    {
      type: 'Resource',
      resource: { name: 'cpu', currentAverageUtilization: 90, currentAverageValue: '0' },
    },
  ]);
  delete back.metadata.annotations;
  assert.deepEqual(back, v1);
});

test('a v1 object without a CPU target gets the 80% default in v2 (upstream DefaultCPUUtilization)', () => {
  const bare = structuredClone(v1);
  delete bare.spec.targetCPUUtilizationPercentage;
  const up: any = hpaV1ToV2(bare);
  assert.deepEqual(up.spec.metrics, [
    {
      type: 'Resource',
      resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } },
    },
  ]);
  assert.equal(
    hpaV2ToV1(up).spec && (hpaV2ToV1(up) as any).spec.targetCPUUtilizationPercentage,
    80
  );
});

test('the round-trip annotations never reach v2, and stale ones in v2 are replaced in v1', () => {
  const down: any = hpaV2ToV1(v2);
  down.metadata.annotations.keep = 'me';
  const up: any = hpaV1ToV2(down);
  assert.deepEqual(up.metadata.annotations, { keep: 'me' });
  const stale = structuredClone(v2);
  stale.metadata.annotations = { [hpaBehaviorAnnotation]: '{"scaleUp":{}}' };
  delete stale.spec.behavior;
  assert.equal((hpaV2ToV1(stale) as any).metadata.annotations?.[hpaBehaviorAnnotation], undefined);
});

test('an Object metric without a value reads "0" after the trip through v1, as upstream', () => {
  const o = structuredClone(v2);
  o.spec.metrics = [
    {
      type: 'Object',
      object: {
        describedObject: { kind: 'Service', name: 's' },
        metric: { name: 'm' },
        target: { type: 'AverageValue', averageValue: '5' },
      },
    },
  ];
  const back: any = hpaV1ToV2(hpaV2ToV1(o));
  assert.deepEqual(back.spec.metrics[0].object.target, {
    type: 'AverageValue',
    value: '0',
    averageValue: '5',
  });
});

test('the conversion registry: by group, kind and versions; same version as is; unknown pairs refused', () => {
  assert.equal(builtinConversions.convert(v2, { group: 'autoscaling', version: 'v2' }), v2);
  const down = builtinConversions.convert(v2, { group: 'autoscaling', version: 'v1' });
  assert.equal(down['apiVersion'], 'autoscaling/v1');
  assert.equal(down['kind'], 'HorizontalPodAutoscaler');
  assert.ok(builtinConversions.has('autoscaling', 'HorizontalPodAutoscaler', 'v1', 'v2'));
  assert.ok(!builtinConversions.has('apps', 'Deployment', 'v1', 'v2'));
  assert.throws(
    () => builtinConversions.convert(v2, { group: 'autoscaling', version: 'v3' }),
    /no conversion/
  );
  assert.throws(
    () => builtinConversions.convert(v2, { group: 'apps', version: 'v1' }),
    /cannot convert/
  );
  const c = new Conversions();
  const key = { group: 'g', kind: 'K', from: 'v1', to: 'v2' };
  c.register(key, (o) => ({ ...o, x: 1 }));
  assert.throws(() => c.register(key, (o) => o), /registered twice/);
  assert.deepEqual(c.convert({ apiVersion: 'g/v1', kind: 'K' }, { group: 'g', version: 'v2' }), {
    apiVersion: 'g/v2',
    kind: 'K',
    x: 1,
  });
});
