// The apps strategies' validation (StatefulSets, DaemonSets, ControllerRevisions, the selectors of
// Deployments and ReplicaSets) as table tests: each row a realistic object (from
// @orch/apimachinery's realistic objects) with one change, and the field errors upstream's
// validation answers for it (field path, type, message); the strategies are the provider's.
import { realisticObjects } from '@orch/apimachinery/testdata';
import type { ApiObject } from '@orch/apimachinery/meta';
import { appsProvider } from './rest-storage-provider.js';
import { testStrategyRows } from '../strategy-test-kit.js';
import type { StrategyRow } from '../strategy-test-kit.js';

const obj = (key: string, change: (o: any) => void = () => {}): ApiObject => {
  const o: any = structuredClone(realisticObjects[key]);
  o.metadata.uid ??= 'uid-1';
  change(o);
  return o as ApiObject;
};

const sts = 'apps/v1/StatefulSet';
const ds = 'apps/v1/DaemonSet';

const rows: StrategyRow[] = [
  // realistic objects are valid
  ['valid StatefulSet', 'apps/statefulsets', obj(sts), []],
  ['valid DaemonSet', 'apps/daemonsets', obj(ds), []],
  ['valid ControllerRevision', 'apps/controllerrevisions', obj('apps/v1/ControllerRevision'), []],
  // immutable selectors (spec.selector: Invalid value: ...: field is immutable)
  ...(
    [
      ['apps/deployments', 'apps/v1/Deployment'],
      ['apps/replicasets', 'apps/v1/ReplicaSet'],
      ['apps/statefulsets', sts],
      ['apps/daemonsets', ds],
    ] as const
  ).map(([resource, key]): StrategyRow => [
    `${key}: the selector is immutable`,
    resource,
    obj(key, (o) => {
      o.spec.selector = { matchLabels: { app: 'other' } };
      o.spec.template.metadata.labels = { app: 'other' };
    }),
    ['spec.selector: FieldValueInvalid: field is immutable'],
    obj(key),
  ]),
  // StatefulSet
  [
    'StatefulSet: selector does not match the template',
    'apps/statefulsets',
    obj(sts, (o) => (o.spec.template.metadata.labels = { app: 'x' })),
    [
      'spec.template.metadata.labels: FieldValueInvalid: `selector` does not match template `labels`',
    ],
  ],
  [
    'StatefulSet: empty selector',
    'apps/statefulsets',
    obj(sts, (o) => (o.spec.selector = {})),
    ['spec.selector: FieldValueInvalid: empty selector is invalid for statefulset'],
  ],
  [
    "StatefulSet: a container mounts a volume of the volumeClaimTemplates (the pod spec is not validated, as upstream's ValidatePodTemplateSpecForStatefulSet)",
    'apps/statefulsets',
    obj(sts, (o) => {
      o.spec.template.spec.containers[0].volumeMounts = [{ name: 'data', mountPath: '/data' }];
      o.spec.volumeClaimTemplates = [
        {
          metadata: { name: 'data' },
          spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
        },
      ];
    }),
    [],
  ],
  [
    'StatefulSet: restart policy Never',
    'apps/statefulsets',
    obj(sts, (o) => (o.spec.template.spec.restartPolicy = 'Never')),
    ['spec.template.spec.restartPolicy: FieldValueNotSupported: supported values: "Always"'],
  ],
  [
    'StatefulSet: negative replicas, unknown pod management policy',
    'apps/statefulsets',
    obj(sts, (o) => {
      o.spec.replicas = -1;
      o.spec.podManagementPolicy = 'Fast';
    }),
    [
      "spec.podManagementPolicy: FieldValueInvalid: must be 'OrderedReady' or 'Parallel'",
      'spec.replicas: FieldValueInvalid: must be greater than or equal to 0',
    ],
  ],
  [
    'StatefulSet: OnDelete with rollingUpdate',
    'apps/statefulsets',
    obj(sts, (o) => (o.spec.updateStrategy.type = 'OnDelete')),
    [
      "spec.updateStrategy.rollingUpdate: FieldValueInvalid: only allowed for updateStrategy 'RollingUpdate'",
    ],
  ],
  [
    'StatefulSet: serviceName may not change',
    'apps/statefulsets',
    obj(sts, (o) => (o.spec.serviceName = 'db2')),
    [
      "spec: FieldValueForbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
    ],
    obj(sts),
  ],
  [
    'StatefulSet: replicas, template and update strategy may change',
    'apps/statefulsets',
    obj(sts, (o) => {
      o.spec.replicas = 5;
      o.spec.template.spec.containers[0].image = 'postgres:17';
      o.spec.updateStrategy = { type: 'OnDelete' };
    }),
    [],
    obj(sts),
  ],
  // DaemonSet
  [
    'DaemonSet: missing selector and template',
    'apps/daemonsets',
    obj(ds, (o) => {
      delete o.spec.selector;
      delete o.spec.template;
    }),
    ['spec.selector: FieldValueRequired', 'spec.template: FieldValueRequired'],
  ],
  [
    'DaemonSet: maxUnavailable and maxSurge both 0',
    'apps/daemonsets',
    obj(ds, (o) => (o.spec.updateStrategy.rollingUpdate = { maxUnavailable: 0, maxSurge: 0 })),
    [
      'spec.updateStrategy.rollingUpdate.maxUnavailable: FieldValueInvalid: may not be 0 when `maxSurge` is 0',
    ],
  ],
  [
    'DaemonSet: a percentage over 100%',
    'apps/daemonsets',
    obj(ds, (o) => (o.spec.updateStrategy.rollingUpdate = { maxUnavailable: '150%', maxSurge: 0 })),
    [
      'spec.updateStrategy.rollingUpdate.maxUnavailable: FieldValueInvalid: must not be greater than 100%',
    ],
  ],
  [
    'DaemonSet: activeDeadlineSeconds in the template',
    'apps/daemonsets',
    obj(ds, (o) => (o.spec.template.spec.activeDeadlineSeconds = 10)),
    [
      'spec.template.spec.activeDeadlineSeconds: FieldValueForbidden: activeDeadlineSeconds in DaemonSet is not Supported',
    ],
  ],
  // ControllerRevision
  [
    'ControllerRevision: data is mandatory, revision non-negative',
    'apps/controllerrevisions',
    obj('apps/v1/ControllerRevision', (o) => {
      delete o.data;
      o.revision = -1;
    }),
    [
      'data: FieldValueRequired: data is mandatory',
      'revision: FieldValueInvalid: must be greater than or equal to 0',
    ],
  ],
  [
    'ControllerRevision: data is immutable',
    'apps/controllerrevisions',
    obj('apps/v1/ControllerRevision', (o) => (o.data = { spec: {} })),
    ['data: FieldValueInvalid: field is immutable'],
    obj('apps/v1/ControllerRevision'),
  ],
];

testStrategyRows(appsProvider, rows);
