// storage.orch.io/v1 and discovery.orch.io/v1 strategies as table tests, each row naming the
// upstream rule (k8s pkg/apis/storage/validation ValidateStorageClass(Update),
// ValidateCSIDriver(Update), ValidateCSINode(Update), ValidateVolumeAttachment(Update),
// ValidateCSIStorageCapacity(Update); pkg/apis/discovery/validation ValidateEndpointSlice).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FieldError } from '@orch/apimachinery/errors';
import type { ApiObject } from '@orch/apimachinery/meta';
import { csiDriverStrategy, validateCSIDriver } from './csidrivers/strategy.js';
import { validateCSINode, validateCSINodeUpdate } from './csinodes/strategy.js';
import {
  csiStorageCapacityStrategy,
  validateCSIStorageCapacity,
} from './csistoragecapacities/strategy.js';
import { validateStorageClass, validateStorageClassUpdate } from './storageclasses/strategy.js';
import {
  validateVolumeAttachment,
  validateVolumeAttachmentUpdate,
} from './volumeattachments/strategy.js';
import {
  endpointSliceStrategy,
  validateEndpointSlice,
} from '../discovery/endpointslices/strategy.js';

const fmt = (errs: FieldError[]): string[] =>
  errs.map((e) => `${e.field}: ${e.type}${e.message ? `: ${e.message}` : ''}`);
function check(errs: FieldError[], want: string[]): void {
  const got = fmt(errs);
  assert.equal(got.length, want.length, got.join('\n'));
  got.forEach((g, i) => assert.ok(g.startsWith(want[i]!), `${g}\n  wanted ${want[i]!}`));
}
const obj = (name: string, fields: Record<string, unknown>, namespace?: string): ApiObject => ({
  metadata: { name, ...(namespace ? { namespace } : {}) },
  ...fields,
});

const sc = (f: Record<string, unknown> = {}) =>
  obj('fast', {
    provisioner: 'csi.example.com',
    reclaimPolicy: 'Delete',
    volumeBindingMode: 'Immediate',
    ...f,
  });
const scRows: [string, ApiObject, string[]][] = [
  ['a valid class', sc(), []],
  ['provisioner: required', sc({ provisioner: '' }), ['provisioner: FieldValueRequired']],
  ['provisioner: a qualified name', sc({ provisioner: 'a b' }), ['provisioner: FieldValueInvalid']],
  [
    'reclaimPolicy: Delete or Retain',
    sc({ reclaimPolicy: 'Recycle' }),
    ['reclaimPolicy: FieldValueNotSupported: supported values: "Delete", "Retain"'],
  ],
  [
    'volumeBindingMode: supported values',
    sc({ volumeBindingMode: 'Later' }),
    [
      'volumeBindingMode: FieldValueNotSupported: supported values: "Immediate", "WaitForFirstConsumer"',
    ],
  ],
  [
    'parameters: at most 512 keys (validateParameters, shared with VolumeAttributesClass)',
    sc({ parameters: Object.fromEntries(Array.from({ length: 513 }, (_, i) => [`k${i}`, 'v'])) }),
    ['parameters: FieldValueTooLong: may not be more than 512 bytes'],
  ],
  ['parameters: may be empty', sc({ parameters: {} }), []],
  [
    'allowedTopologies: expressions with values',
    sc({ allowedTopologies: [{ matchLabelExpressions: [{ key: 'zone', values: [] }] }] }),
    ['allowedTopologies[0].matchLabelExpressions[0].values: FieldValueRequired'],
  ],
];
for (const [name, o, want] of scRows)
  test(`ValidateStorageClass, ${name}`, () => check(validateStorageClass(o), want));

test('ValidateStorageClassUpdate: parameters, provisioner, reclaimPolicy, volumeBindingMode immutable; allowVolumeExpansion not', () => {
  check(
    validateStorageClassUpdate(
      sc({
        provisioner: 'other.example.com',
        parameters: { a: 'b' },
        reclaimPolicy: 'Retain',
        volumeBindingMode: 'WaitForFirstConsumer',
      }),
      sc()
    ),
    [
      'parameters: FieldValueForbidden: updates to parameters are forbidden.',
      'provisioner: FieldValueForbidden: updates to provisioner are forbidden.',
      'reclaimPolicy: FieldValueForbidden: updates to reclaimPolicy are forbidden.',
      'volumeBindingMode: FieldValueInvalid: field is immutable',
    ]
  );
  check(validateStorageClassUpdate(sc({ allowVolumeExpansion: true }), sc()), []);
});

const driver = (spec: Record<string, unknown> = {}) =>
  obj('csi.example.com', { spec: { attachRequired: true, podInfoOnMount: false, ...spec } });
const driverRows: [string, ApiObject, string[]][] = [
  [
    'a valid driver',
    driver({
      volumeLifecycleModes: ['Persistent'],
      tokenRequests: [{ audience: 'a', expirationSeconds: 600 }],
    }),
    [],
  ],
  [
    'attachRequired and podInfoOnMount set',
    obj('d.example.com', { spec: {} }),
    ['spec.attachRequired: FieldValueRequired', 'spec.podInfoOnMount: FieldValueRequired'],
  ],
  [
    'fsGroupPolicy: supported values',
    driver({ fsGroupPolicy: 'Always' }),
    [
      'spec.fsGroupPolicy: FieldValueNotSupported: supported values: "File", "None", "ReadWriteOnceWithFSType"',
    ],
  ],
  [
    'volumeLifecycleModes: supported values',
    driver({ volumeLifecycleModes: ['Inline'] }),
    ['spec.volumeLifecycleModes[0]: FieldValueNotSupported'],
  ],
  [
    'tokenRequests: distinct audiences',
    driver({ tokenRequests: [{ audience: 'a' }, { audience: 'a' }] }),
    ['spec.tokenRequests[1].audience: FieldValueDuplicate'],
  ],
  [
    'tokenRequests: at least 10 minutes',
    driver({ tokenRequests: [{ audience: 'a', expirationSeconds: 60 }] }),
    [
      'spec.tokenRequests[0].expirationSeconds: FieldValueInvalid: may not specify a duration less than 10 minutes',
    ],
  ],
  [
    'the name: a CSI driver name',
    obj('Bad_Driver', { spec: { attachRequired: true, podInfoOnMount: true } }),
    ['metadata.name: FieldValueInvalid'],
  ],
];
for (const [name, o, want] of driverRows)
  test(`ValidateCSIDriver, ${name}`, () => check(validateCSIDriver(o), want));

test('ValidateCSIDriverUpdate: attachRequired (upstream path: spec.attachedRequired) and volumeLifecycleModes immutable; podInfoOnMount mutable', () => {
  check(
    csiDriverStrategy.validateUpdate(
      driver({ attachRequired: false, volumeLifecycleModes: ['Ephemeral'] }),
      driver({ volumeLifecycleModes: ['Persistent'] })
    ),
    [
      'spec.attachRequired: FieldValueInvalid: field is immutable',
      'spec.volumeLifecycleModes: FieldValueInvalid: field is immutable',
    ]
  );
  check(csiDriverStrategy.validateUpdate(driver({ podInfoOnMount: true }), driver()), []);
});

const node = (drivers: unknown[]) => obj('node-1', { spec: { drivers } });
const nodeRows: [string, ApiObject, string[]][] = [
  [
    'a valid node',
    node([
      { name: 'csi.example.com', nodeID: 'n1', topologyKeys: ['topology.kubernetes.io/zone'] },
    ]),
    [],
  ],
  [
    'drivers: distinct names',
    node([
      { name: 'a.example.com', nodeID: 'x' },
      { name: 'a.example.com', nodeID: 'y' },
    ]),
    ['spec.drivers[1].name: FieldValueDuplicate'],
  ],
  [
    'drivers: a nodeID',
    node([{ name: 'a.example.com' }]),
    ['spec.drivers[0].nodeID: FieldValueRequired'],
  ],
  [
    'drivers: nodeID at most 192 characters',
    node([{ name: 'a.example.com', nodeID: 'x'.repeat(193) }]),
    ['spec.drivers[0].nodeID: FieldValueTooLong: may not be more than 192 bytes'],
  ],
  [
    'drivers: topology keys qualified and distinct',
    node([{ name: 'a.example.com', nodeID: 'x', topologyKeys: ['z', 'z'] }]),
    ['spec.drivers[0].topologyKeys[1]: FieldValueDuplicate'],
  ],
];
for (const [name, o, want] of nodeRows)
  test(`ValidateCSINode, ${name}`, () => check(validateCSINode(o), want));

test('ValidateCSINodeUpdate: a listed driver keeps its nodeID; drivers may be added and removed', () => {
  const old = node([{ name: 'a.example.com', nodeID: 'x' }]);
  check(validateCSINodeUpdate(node([{ name: 'a.example.com', nodeID: 'y' }]), old), [
    'spec.drivers[0].nodeID: FieldValueInvalid: field is immutable',
  ]);
  check(validateCSINodeUpdate(node([{ name: 'b.example.com', nodeID: 'z' }]), old), []);
});

const va = (spec: Record<string, unknown>) =>
  obj('va', { spec: { attacher: 'csi.example.com', nodeName: 'node-1', ...spec } });
const vaRows: [string, ApiObject, string[]][] = [
  ['a persistent volume source', va({ source: { persistentVolumeName: 'pv-1' } }), []],
  [
    'source: exactly one',
    va({ source: {} }),
    [
      'spec.source: FieldValueRequired: must specify exactly one of inlineVolumeSpec and persistentVolumeName',
    ],
  ],
  [
    'attacher: required',
    va({ attacher: '', source: { persistentVolumeName: 'pv' } }),
    ['spec.attacher: FieldValueRequired', 'spec.attacher: FieldValueInvalid'],
  ],
  [
    'nodeName: required',
    va({ nodeName: '', source: { persistentVolumeName: 'pv' } }),
    ['spec.nodeName: FieldValueRequired'],
  ],
];
for (const [name, o, want] of vaRows)
  test(`ValidateVolumeAttachment, ${name}`, () => check(validateVolumeAttachment(o), want));
test('ValidateVolumeAttachmentUpdate: the spec is immutable', () => {
  const old = va({ source: { persistentVolumeName: 'pv-1' } });
  check(validateVolumeAttachmentUpdate(va({ source: { persistentVolumeName: 'pv-2' } }), old), [
    'spec: FieldValueInvalid: field is immutable',
  ]);
});

const cap = (f: Record<string, unknown>) => obj('c', { storageClassName: 'fast', ...f }, 'default');
const capRows: [string, ApiObject, string[]][] = [
  ['a valid capacity', cap({ capacity: '10Gi', maximumVolumeSize: '1Gi' }), []],
  [
    'storageClassName: required',
    cap({ storageClassName: '' }),
    ['storageClassName: FieldValueRequired'],
  ],
  [
    'capacity: non-negative',
    cap({ capacity: '-1Gi' }),
    ['capacity: FieldValueInvalid: must be greater than or equal to 0'],
  ],
];
for (const [name, o, want] of capRows)
  test(`ValidateCSIStorageCapacity, ${name}`, () => check(validateCSIStorageCapacity(o), want));
test('ValidateCSIStorageCapacityUpdate: storageClassName and nodeTopology immutable, capacity not', () => {
  check(csiStorageCapacityStrategy.validateUpdate(cap({ storageClassName: 'slow' }), cap({})), [
    'storageClassName: FieldValueInvalid: field is immutable',
  ]);
  check(
    csiStorageCapacityStrategy.validateUpdate(cap({ capacity: '5Gi' }), cap({ capacity: '1Gi' })),
    []
  );
});

const slice = (f: Record<string, unknown>) => obj('s', { addressType: 'IPv4', ...f }, 'default');
const sliceRows: [string, ApiObject, string[]][] = [
  [
    'a valid slice',
    slice({
      endpoints: [{ addresses: ['10.0.0.1'] }],
      ports: [{ name: 'http', port: 80, protocol: 'TCP' }],
    }),
    [],
  ],
  [
    'addressType: supported values',
    slice({ addressType: 'IPv5' }),
    ['addressType: FieldValueNotSupported: supported values: "FQDN", "IPv4", "IPv6"'],
  ],
  [
    'endpoints[].addresses: at least one',
    slice({ endpoints: [{ addresses: [] }] }),
    ['endpoints[0].addresses: FieldValueRequired: must contain at least 1 address'],
  ],
  [
    'endpoints[].addresses: of the address type',
    slice({ endpoints: [{ addresses: ['fd00::1'] }] }),
    ['endpoints[0].addresses[0]: FieldValueInvalid: must be a valid IPv4 address'],
  ],
  [
    'ports[].name: unique',
    slice({ ports: [{ name: 'a' }, { name: 'a' }] }),
    ['ports[1].name: FieldValueDuplicate'],
  ],
  [
    'ports[].protocol: supported values',
    slice({ ports: [{ protocol: 'HTTP' }] }),
    ['ports[0].protocol: FieldValueNotSupported'],
  ],
];
for (const [name, o, want] of sliceRows)
  test(`ValidateEndpointSlice, ${name}`, () => check(validateEndpointSlice(o), want));
test('ValidateEndpointSliceUpdate: addressType is immutable', () => {
  check(endpointSliceStrategy.validateUpdate(slice({ addressType: 'IPv6' }), slice({})), [
    'addressType: FieldValueInvalid: field is immutable',
  ]);
});
