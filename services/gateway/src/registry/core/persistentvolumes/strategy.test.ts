// PersistentVolume and PersistentVolumeClaim strategies as table tests, each row naming the
// upstream rule (k8s pkg/apis/core/validation ValidatePersistentVolume(Update),
// ValidatePersistentVolumeClaim(Update)).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FieldError } from '@orch/apimachinery/errors';
import type { ApiObject } from '@orch/apimachinery/meta';
import { validatePersistentVolume, validatePersistentVolumeUpdate } from './strategy.js';
import {
  validatePersistentVolumeClaim,
  validatePersistentVolumeClaimUpdate,
} from '../persistentvolumeclaims/strategy.js';

const fmt = (errs: FieldError[]): string[] =>
  errs.map((e) => `${e.field}: ${e.type}${e.message ? `: ${e.message}` : ''}`);
const pv = (spec: Record<string, unknown> = {}): ApiObject => ({
  metadata: { name: 'pv' },
  spec: {
    capacity: { storage: '1Gi' },
    accessModes: ['ReadWriteOnce'],
    hostPath: { path: '/data' },
    ...spec,
  },
});

const pvRows: [string, ApiObject, string[]][] = [
  ['a valid hostPath volume', pv(), []],
  [
    'accessModes: at least one',
    pv({ accessModes: [] }),
    ['spec.accessModes: FieldValueRequired: must specify at least 1 access mode'],
  ],
  [
    'accessModes: supported values',
    pv({ accessModes: ['ReadWriteSometimes'] }),
    [
      'spec.accessModes: FieldValueNotSupported: supported values: "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"',
    ],
  ],
  [
    'accessModes: ReadWriteOncePod alone',
    pv({ accessModes: ['ReadWriteOncePod', 'ReadWriteOnce'] }),
    ['spec.accessModes: FieldValueForbidden: may not use ReadWriteOncePod with other access modes'],
  ],
  ['capacity: required', pv({ capacity: {} }), ['spec.capacity: FieldValueRequired']],
  [
    'capacity: storage only',
    pv({ capacity: { cpu: '1' } }),
    ['spec.capacity: FieldValueNotSupported: supported values: "storage"'],
  ],
  [
    'capacity: above zero',
    pv({ capacity: { storage: '0' } }),
    ['spec.capacity[storage]: FieldValueInvalid: must be greater than zero'],
  ],
  [
    'volume source: one required',
    pv({ hostPath: undefined }),
    ['spec: FieldValueRequired: must specify a volume type'],
  ],
  [
    'volume source: at most one',
    pv({ nfs: { server: 'nfs', path: '/x' } }),
    ['spec.nfs: FieldValueForbidden: may not specify more than 1 volume type'],
  ],
  [
    'csi: driver and volumeHandle',
    pv({ hostPath: undefined, csi: {} }),
    ['spec.csi.driver: FieldValueRequired', 'spec.csi.volumeHandle: FieldValueRequired'],
  ],
  [
    'local: node affinity',
    pv({ hostPath: undefined, local: { path: '/mnt' } }),
    ['spec.nodeAffinity: FieldValueRequired: Local volume requires node affinity'],
  ],
  [
    'persistentVolumeReclaimPolicy: supported values',
    pv({ persistentVolumeReclaimPolicy: 'Keep' }),
    [
      'spec.persistentVolumeReclaimPolicy: FieldValueNotSupported: supported values: "Delete", "Recycle", "Retain"',
    ],
  ],
  [
    'volumeMode: supported values',
    pv({ volumeMode: 'Raw' }),
    ['spec.volumeMode: FieldValueNotSupported: supported values: "Block", "Filesystem"'],
  ],
];
for (const [rule, obj, want] of pvRows)
  test(`ValidatePersistentVolume, ${rule}`, () =>
    assert.deepEqual(fmt(validatePersistentVolume(obj)), want));

test('ValidatePersistentVolumeUpdate: the volume source and volumeMode are immutable; capacity and reclaim policy are not', () => {
  assert.deepEqual(
    fmt(validatePersistentVolumeUpdate(pv({ hostPath: { path: '/other' } }), pv())),
    ['spec: FieldValueForbidden: spec.persistentvolumesource is immutable after creation']
  );
  assert.deepEqual(
    fmt(
      validatePersistentVolumeUpdate(pv({ volumeMode: 'Block' }), pv({ volumeMode: 'Filesystem' }))
    ),
    ['spec.volumeMode: FieldValueInvalid: field is immutable']
  );
  assert.deepEqual(
    fmt(
      validatePersistentVolumeUpdate(
        pv({ capacity: { storage: '2Gi' }, persistentVolumeReclaimPolicy: 'Delete' }),
        pv()
      )
    ),
    []
  );
});

const pvc = (spec: Record<string, unknown> = {}, status?: Record<string, unknown>): ApiObject => ({
  metadata: { name: 'c', namespace: 'default' },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, ...spec },
  ...(status ? { status } : {}),
});
const pvcRows: [string, ApiObject, string[]][] = [
  ['a valid claim', pvc(), []],
  [
    'accessModes: at least one',
    pvc({ accessModes: [] }),
    ['spec.accessModes: FieldValueRequired: at least 1 access mode is required'],
  ],
  [
    'resources.requests[storage] required',
    pvc({ resources: {} }),
    ['spec.resources.requests[storage]: FieldValueRequired'],
  ],
  [
    'resources.requests[storage] above zero',
    pvc({ resources: { requests: { storage: '0Gi' } } }),
    ['spec.resources.requests[storage]: FieldValueInvalid: must be greater than zero'],
  ],
  [
    'storageClassName: a DNS subdomain',
    pvc({ storageClassName: 'Fast_SSD' }),
    ['spec.storageClassName: FieldValueInvalid'],
  ],
  [
    'selector: a valid label selector',
    pvc({ selector: { matchLabels: { 'bad key': 'x' } } }),
    ['spec.selector.matchLabels: FieldValueInvalid'],
  ],
  [
    'dataSource: the core group names only PersistentVolumeClaims',
    pvc({ dataSource: { kind: 'Pod', name: 'x' } }),
    [
      "spec.dataSource.kind: FieldValueInvalid: must be 'PersistentVolumeClaim' when referencing the default apiGroup",
    ],
  ],
];
for (const [rule, obj, want] of pvcRows)
  test(`ValidatePersistentVolumeClaim, ${rule}`, () => {
    // a row may give only the start of a message (the label-selector and DNS texts are long)
    const got = fmt(validatePersistentVolumeClaim(obj));
    assert.equal(got.length, want.length, got.join('\n'));
    got.forEach((g, k) => assert.ok(g.startsWith(want[k]!), g));
  });

const specImmutable =
  'spec: FieldValueForbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims';
const pvcUpdateRows: [string, ApiObject, ApiObject, string[]][] = [
  ['volumeName is set once (binding)', pvc(), pvc({ volumeName: 'pv-1' }), []],
  [
    'an unbound claim cannot change its request',
    pvc(),
    pvc({ resources: { requests: { storage: '2Gi' } } }),
    [specImmutable],
  ],
  [
    'a bound claim may grow its request',
    pvc({ volumeName: 'pv-1' }, { capacity: { storage: '1Gi' } }),
    pvc({ volumeName: 'pv-1', resources: { requests: { storage: '2Gi' } } }),
    [],
  ],
  [
    'a bound claim may not shrink below status.capacity',
    pvc(
      { volumeName: 'pv-1', resources: { requests: { storage: '2Gi' } } },
      { capacity: { storage: '2Gi' } }
    ),
    pvc({ volumeName: 'pv-1', resources: { requests: { storage: '1Gi' } } }),
    [
      'spec.resources.requests.storage: FieldValueForbidden: field can not be less than status.capacity',
    ],
  ],
  ['accessModes are immutable', pvc(), pvc({ accessModes: ['ReadWriteMany'] }), [specImmutable]],
  [
    'volumeAttributesClassName may change',
    pvc({ volumeAttributesClassName: 'a' }),
    pvc({ volumeAttributesClassName: 'b' }),
    [],
  ],
];
for (const [rule, old, next, want] of pvcUpdateRows)
  test(`ValidatePersistentVolumeClaimUpdate, ${rule}`, () =>
    assert.deepEqual(fmt(validatePersistentVolumeClaimUpdate(next, old)), want));
