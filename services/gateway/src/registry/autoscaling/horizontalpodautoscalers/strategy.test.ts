// The HorizontalPodAutoscalers' validation (autoscaling/v2, which both served versions are
// validated as) as table tests: each row a realistic object (from
// @orch/apimachinery's realistic objects) with one change, and the field errors upstream's
// validation answers for it (field path, type, message); the strategies are the provider's.
import { realisticObjects } from '@orch/apimachinery/testdata';
import type { ApiObject } from '@orch/apimachinery/meta';
import { autoscalingProvider } from '../rest-storage-provider.js';
import { testStrategyRows } from '../../strategy-test-kit.js';
import type { StrategyRow } from '../../strategy-test-kit.js';

const obj = (key: string, change: (o: any) => void = () => {}): ApiObject => {
  const o: any = structuredClone(realisticObjects[key]);
  o.metadata.uid ??= 'uid-1';
  change(o);
  return o as ApiObject;
};

const hpa = 'autoscaling/v2/HorizontalPodAutoscaler';

const rows: StrategyRow[] = [
  ['valid HPA', 'autoscaling/horizontalpodautoscalers', obj(hpa), []],
  // HPA (v2, the storage version)
  [
    'HPA: maxReplicas below minReplicas, scaleTargetRef without a name',
    'autoscaling/horizontalpodautoscalers',
    obj(hpa, (o) => {
      o.spec.maxReplicas = 1;
      delete o.spec.scaleTargetRef.name;
    }),
    [
      'spec.maxReplicas: FieldValueInvalid: must be greater than or equal to `minReplicas`',
      'spec.scaleTargetRef.name: FieldValueRequired',
    ],
  ],
  [
    'HPA: a Resource metric with both targets, a metric with two sources',
    'autoscaling/horizontalpodautoscalers',
    obj(hpa, (o) => {
      o.spec.metrics = [
        {
          type: 'Resource',
          resource: {
            name: 'cpu',
            target: { type: 'Utilization', averageUtilization: 50, averageValue: '1' },
          },
        },
        {
          type: 'Pods',
          pods: { metric: { name: 'p' }, target: { type: 'AverageValue', averageValue: '1' } },
          resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } },
        },
      ];
    }),
    [
      'spec.metrics[0].resource.target.averageValue: FieldValueForbidden: may not set both a target raw value and a target utilization',
      'spec.metrics[1].resource: FieldValueForbidden: must populate the given metric source only',
    ],
  ],
  [
    'HPA: behavior with a period over 1800 s and an unknown select policy',
    'autoscaling/horizontalpodautoscalers',
    obj(hpa, (o) => {
      o.spec.behavior.scaleUp.selectPolicy = 'Median';
      o.spec.behavior.scaleDown.policies[0].periodSeconds = 3600;
    }),
    [
      'spec.behavior.scaleUp.selectPolicy: FieldValueNotSupported: supported values: "Disabled", "Max", "Min"',
      'spec.behavior.scaleDown.policies[0].periodSeconds: FieldValueInvalid: must be less than or equal to 1800',
    ],
  ],
];

testStrategyRows(autoscalingProvider, rows);
