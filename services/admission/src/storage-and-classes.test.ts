// DefaultStorageClass, DefaultIngressClass, StorageObjectInUseProtection,
// PersistentVolumeClaimResize and RuntimeClass, row by row with upstream's cases
// (setdefault/admission_test.go, defaultingressclass/admission_test.go,
// storageobjectinuseprotection/admission_test.go, resize/admission_test.go,
// runtimeclass/admission_test.go).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ApiObject } from '@orch/apimachinery/meta';
import { newDefaultIngressClass } from './default-ingress-class/default-ingress-class.js';
import { newDefaultStorageClass } from './default-storage-class/default-storage-class.js';
import { newPersistentVolumeClaimResize } from './persistent-volume-claim-resize/persistent-volume-claim-resize.js';
import { pluginDeps, pod, recordingContext, request } from './plugin-test-kit.js';
import { newRuntimeClass } from './runtime-class/runtime-class.js';
import { newStorageObjectInUseProtection } from './storage-object-in-use-protection/storage-object-in-use-protection.js';

type Obj = Record<string, any>;
const cluster = (
  apiVersion: string,
  kind: string,
  name: string,
  annotations: Record<string, string> | undefined,
  creationTimestamp: string,
  extra: Obj = {}
): ApiObject => ({
  apiVersion,
  kind,
  metadata: { name, creationTimestamp, ...(annotations ? { annotations } : {}) },
  ...extra,
});

// --- DefaultStorageClass ---------------------------------------------------------------------
const sc = (
  name: string,
  annotations?: Record<string, string>,
  t = '2024-05-01T10:00:00Z',
  extra: Obj = {}
) =>
  cluster('storage.orch.io/v1', 'StorageClass', name, annotations, t, {
    provisioner: 'csi.example.com',
    ...extra,
  });
const defaultClass1 = sc('default1', { 'storageclass.orch.io/is-default-class': 'true' });
const defaultClass2 = sc('default2', { 'storageclass.orch.io/is-default-class': 'true' });
const defaultClassNewest = sc(
  'newest',
  { 'storageclass.orch.io/is-default-class': 'true' },
  '2024-06-01T10:00:00Z'
);
const betaDefaultClass = sc('beta', { 'storageclass.beta.orch.io/is-default-class': 'true' });
const classWithFalseDefault = sc('nondefault1', {
  'storageclass.orch.io/is-default-class': 'false',
});
const classWithNoDefault = sc('nondefault2');
const classWithEmptyDefault = sc('nondefault3', { 'storageclass.orch.io/is-default-class': '' });

const claim = (spec: Obj = {}, annotations?: Record<string, string>, status?: Obj): ApiObject => ({
  apiVersion: 'v1',
  kind: 'PersistentVolumeClaim',
  metadata: { name: 'claim1', namespace: 'ns', ...(annotations ? { annotations } : {}) },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, ...spec },
  ...(status ? { status } : {}),
});

const dscRows: {
  name: string;
  classes: ApiObject[];
  claim: ApiObject;
  want: string | undefined;
  /** The create is refused with this message (403). */
  refused?: string;
}[] = [
  {
    name: 'no default, no modification of PVCs',
    classes: [classWithFalseDefault, classWithNoDefault, classWithEmptyDefault],
    claim: claim(),
    want: undefined,
  },
  {
    name: 'one default, modify PVC with class=nil',
    classes: [defaultClass1, classWithFalseDefault, classWithNoDefault, classWithEmptyDefault],
    claim: claim(),
    want: 'default1',
  },
  {
    name: 'one default, no modification of PVC with class=""',
    classes: [defaultClass1],
    claim: claim({ storageClassName: '' }),
    want: '',
  },
  {
    name: 'one default, no modification of PVC with class="foo"',
    classes: [defaultClass1],
    claim: claim({ storageClassName: 'foo' }),
    want: 'foo',
  },
  {
    name: 'one default, no modification of PVC with the beta class annotation',
    classes: [defaultClass1],
    claim: claim({}, { 'volume.beta.orch.io/storage-class': 'foo' }),
    want: undefined,
  },
  {
    name: 'one beta default, modify PVC with class=nil',
    classes: [betaDefaultClass, classWithNoDefault],
    claim: claim(),
    want: 'beta',
  },
  {
    name: 'several defaults: a claim with class=nil is refused (the spec), whatever their ages',
    classes: [defaultClass1, defaultClassNewest, defaultClass2],
    claim: claim(),
    want: undefined,
    refused:
      'persistentvolumeclaims "claim1" is forbidden: Internal error occurred: 3 default StorageClasses were found',
  },
  {
    name: 'several defaults, one of them beta: refused',
    classes: [defaultClass1, betaDefaultClass],
    claim: claim(),
    want: undefined,
    refused:
      'persistentvolumeclaims "claim1" is forbidden: Internal error occurred: 2 default StorageClasses were found',
  },
  {
    name: 'several defaults: a claim with class="" is admitted unchanged',
    classes: [defaultClass1, defaultClass2],
    claim: claim({ storageClassName: '' }),
    want: '',
  },
  {
    name: 'several defaults: a claim with class="foo" is admitted unchanged',
    classes: [defaultClass1, defaultClass2],
    claim: claim({ storageClassName: 'foo' }),
    want: 'foo',
  },
];

/** The 403 the admit step threw, or undefined when it admitted. */
async function refusal(p: Promise<void>): Promise<{ code: number; message: string } | undefined> {
  try {
    await p;
    return undefined;
  } catch (err) {
    return err as { code: number; message: string };
  }
}

for (const row of dscRows) {
  test(`DefaultStorageClass: ${row.name}`, async () => {
    const req = request({ resource: 'persistentvolumeclaims', object: row.claim });
    const err = await refusal(
      newDefaultStorageClass(pluginDeps({ objects: { storageclasses: row.classes } })).admit!(
        req,
        recordingContext()
      )
    );
    assert.equal(err?.message, row.refused);
    if (row.refused) assert.equal(err?.code, 403);
    assert.equal((req.object as Obj)['spec'].storageClassName, row.want);
  });
}

// --- DefaultIngressClass ---------------------------------------------------------------------
const ic = (name: string, annotations?: Record<string, string>, t = '2024-05-01T10:00:00Z') =>
  cluster('networking.orch.io/v1', 'IngressClass', name, annotations, t, {
    spec: { controller: 'example.com/ingress' },
  });
const defaultIc1 = ic('default1', { 'ingressclass.orch.io/is-default-class': 'true' });
const defaultIc2 = ic(
  'default2',
  { 'ingressclass.orch.io/is-default-class': 'true' },
  '2024-06-01T10:00:00Z'
);
const icFalse = ic('nondefault1', { 'ingressclass.orch.io/is-default-class': 'false' });
const icNone = ic('nondefault2');
const ingress = (spec: Obj = {}, annotations?: Record<string, string>): ApiObject => ({
  apiVersion: 'networking.orch.io/v1',
  kind: 'Ingress',
  metadata: { name: 'testing', namespace: 'ns', ...(annotations ? { annotations } : {}) },
  spec: { defaultBackend: { service: { name: 'web', port: { number: 80 } } }, ...spec },
});

const dicRows: {
  name: string;
  classes: ApiObject[];
  ingress: ApiObject;
  want: string | undefined;
  /** The create is refused with this message (403). */
  refused?: string;
}[] = [
  {
    name: 'no default, no modification of Ingress',
    classes: [icFalse, icNone],
    ingress: ingress(),
    want: undefined,
  },
  {
    name: 'one default, modify Ingress with class=nil',
    classes: [defaultIc1, icFalse, icNone],
    ingress: ingress(),
    want: 'default1',
  },
  {
    name: 'one default, no modification of Ingress with class field=""',
    classes: [defaultIc1],
    ingress: ingress({ ingressClassName: '' }),
    want: '',
  },
  {
    name: 'one default, no modification of Ingress with class field="foo"',
    classes: [defaultIc1],
    ingress: ingress({ ingressClassName: 'foo' }),
    want: 'foo',
  },
  {
    name: 'one default, no modification of Ingress with class annotation="foo"',
    classes: [defaultIc1],
    ingress: ingress({}, { 'orch.io/ingress.class': 'foo' }),
    want: undefined,
  },
  {
    name: 'two defaults, error with Ingress with class field=nil (the spec), whatever their ages',
    classes: [defaultIc1, defaultIc2, icFalse, icNone],
    ingress: ingress(),
    want: undefined,
    refused:
      'ingresses.networking.orch.io "testing" is forbidden: Internal error occurred: 2 default IngressClasses were found, only 1 allowed',
  },
  {
    name: "two defaults, no modification with Ingress with class field=''",
    classes: [defaultIc1, defaultIc2],
    ingress: ingress({ ingressClassName: '' }),
    want: '',
  },
  {
    name: 'two defaults, no modification with Ingress with class field="foo"',
    classes: [defaultIc1, defaultIc2],
    ingress: ingress({ ingressClassName: 'foo' }),
    want: 'foo',
  },
];

for (const row of dicRows) {
  test(`DefaultIngressClass: ${row.name}`, async () => {
    const req = request({
      group: 'networking.orch.io',
      resource: 'ingresses',
      object: row.ingress,
    });
    const err = await refusal(
      newDefaultIngressClass(pluginDeps({ objects: { ingressclasses: row.classes } })).admit!(
        req,
        recordingContext()
      )
    );
    assert.equal(err?.message, row.refused);
    if (row.refused) assert.equal(err?.code, 403);
    assert.equal((req.object as Obj)['spec'].ingressClassName, row.want);
  });
}

// --- StorageObjectInUseProtection ------------------------------------------------------------
const pv = (finalizers?: string[]): ApiObject => ({
  apiVersion: 'v1',
  kind: 'PersistentVolume',
  metadata: { name: 'pv', ...(finalizers ? { finalizers } : {}) },
  spec: { capacity: { storage: '1Gi' }, hostPath: { path: '/data' } },
});

const protectionRows: {
  name: string;
  resource: string;
  object: ApiObject;
  want: string[] | undefined;
}[] = [
  {
    name: 'create a PVC, add the finalizer',
    resource: 'persistentvolumeclaims',
    object: claim(),
    want: ['orch.io/pvc-protection'],
  },
  {
    name: 'create a PVC with the finalizer: unchanged',
    resource: 'persistentvolumeclaims',
    object: {
      ...claim(),
      metadata: { name: 'c', namespace: 'ns', finalizers: ['orch.io/pvc-protection'] },
    } as ApiObject,
    want: ['orch.io/pvc-protection'],
  },
  {
    name: 'create a PV, add the finalizer after the others',
    resource: 'persistentvolumes',
    object: pv(['example.com/keep']),
    want: ['example.com/keep', 'orch.io/pv-protection'],
  },
  {
    name: 'create a PV with the finalizer: unchanged',
    resource: 'persistentvolumes',
    object: pv(['orch.io/pv-protection']),
    want: ['orch.io/pv-protection'],
  },
  { name: 'create a pod: no finalizer', resource: 'pods', object: pod('p', {}), want: undefined },
];

for (const row of protectionRows) {
  test(`StorageObjectInUseProtection: ${row.name}`, async () => {
    const req = request({
      resource: row.resource,
      namespace: row.resource === 'persistentvolumes' ? '' : 'ns',
      object: row.object,
    });
    await newStorageObjectInUseProtection(pluginDeps()).admit!(req, recordingContext());
    assert.deepEqual(req.object?.metadata.finalizers, row.want);
  });
}

// --- PersistentVolumeClaimResize -------------------------------------------------------------
const gold = sc('gold', undefined, undefined, { allowVolumeExpansion: true });
const silver = sc('silver', undefined, undefined, { allowVolumeExpansion: false });
const bronze = sc('bronze');
const sized = (size: string, cls?: string, phase = 'Bound', annotations?: Record<string, string>) =>
  claim(
    {
      resources: { requests: { storage: size } },
      ...(cls !== undefined ? { storageClassName: cls } : {}),
    },
    annotations,
    { phase, capacity: { storage: '1Gi' } }
  );
const notSupported =
  'persistentvolumeclaims "claim1" is forbidden: only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize';

const resizeRows: { name: string; old: ApiObject; next: ApiObject; error?: string }[] = [
  {
    name: 'pvc-resize, update, no error (class allows expansion)',
    old: sized('1Gi', 'gold'),
    next: sized('2Gi', 'gold'),
  },
  {
    name: 'pvc-resize, update, error (class sets allowVolumeExpansion false)',
    old: sized('1Gi', 'silver'),
    next: sized('2Gi', 'silver'),
    error: notSupported,
  },
  {
    name: 'pvc-resize, update, error (class does not say)',
    old: sized('1Gi', 'bronze'),
    next: sized('2Gi', 'bronze'),
    error: notSupported,
  },
  {
    name: 'pvc-resize, update, error (class does not exist)',
    old: sized('1Gi', 'missing'),
    next: sized('2Gi', 'missing'),
    error: notSupported,
  },
  {
    name: 'pvc-resize, update, error (no class)',
    old: sized('1Gi'),
    next: sized('2Gi'),
    error: notSupported,
  },
  {
    name: 'pvc-resize, update, error (class changed)',
    old: sized('1Gi', 'silver'),
    next: sized('2Gi', 'gold'),
    error: notSupported,
  },
  {
    name: 'pvc-resize, update, the beta class annotation names the class',
    old: sized('1Gi', undefined, 'Bound', { 'volume.beta.orch.io/storage-class': 'gold' }),
    next: sized('2Gi', undefined, 'Bound', { 'volume.beta.orch.io/storage-class': 'gold' }),
  },
  {
    name: 'expand pvc in pending state',
    old: sized('1Gi', 'gold', 'Pending'),
    next: sized('2Gi', 'gold', 'Pending'),
    error:
      'persistentvolumeclaims "claim1" is forbidden: Only bound persistent volume claims can be expanded',
  },
  {
    name: 'same size (another unit), no check',
    old: sized('1Gi', 'silver', 'Pending'),
    next: sized('1024Mi', 'silver', 'Pending'),
  },
  {
    name: 'shrinking is left to validation',
    old: sized('2Gi', 'silver'),
    next: sized('1Gi', 'silver'),
  },
];

for (const row of resizeRows) {
  test(`PersistentVolumeClaimResize: ${row.name}`, async () => {
    const validating = newPersistentVolumeClaimResize(
      pluginDeps({ objects: { storageclasses: [gold, silver, bronze] } })
    ).validate!(
      request({
        operation: 'UPDATE',
        resource: 'persistentvolumeclaims',
        object: row.next,
        oldObject: row.old,
      }),
      recordingContext()
    );
    if (row.error) await assert.rejects(validating, { message: row.error });
    else await validating;
  });
}

// --- RuntimeClass ----------------------------------------------------------------------------
const rc = (name: string, extra: Obj = {}) =>
  cluster('node.orch.io/v1', 'RuntimeClass', name, undefined, '2024-05-01T10:00:00Z', {
    handler: name,
    ...extra,
  });
const classes = [
  rc('with-overhead', { overhead: { podFixed: { cpu: '100m', memory: '32Mi' } } }),
  rc('plain'),
  rc('scheduled', {
    scheduling: {
      nodeSelector: { 'example.com/runtime': 'kata', zone: 'a' },
      tolerations: [
        { key: 'example.com/runtime', operator: 'Equal', value: 'kata', effect: 'NoSchedule' },
        { key: 'dedicated', operator: 'Exists' },
      ],
    },
  }),
];
const runtimePlugin = () => newRuntimeClass(pluginDeps({ objects: { runtimeclasses: classes } }));
const rcPod = (spec: Obj) => pod('p', { containers: [{ name: 'c' }], ...spec });

const rcAdmitRows: { name: string; spec: Obj; want?: Obj; error?: string }[] = [
  {
    name: 'no RuntimeClass: the pod is unchanged',
    spec: {},
    want: { overhead: undefined, nodeSelector: undefined },
  },
  {
    name: 'overhead set from the RuntimeClass',
    spec: { runtimeClassName: 'with-overhead' },
    want: { overhead: { cpu: '100m', memory: '32Mi' } },
  },
  {
    name: 'the same overhead already set (another unit) is kept as the class’s',
    spec: { runtimeClassName: 'with-overhead', overhead: { cpu: '0.1', memory: '32Mi' } },
    want: { overhead: { cpu: '100m', memory: '32Mi' } },
  },
  {
    name: 'a different overhead already set is refused',
    spec: { runtimeClassName: 'with-overhead', overhead: { cpu: '200m' } },
    error:
      "pods \"p\" is forbidden: pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead",
  },
  {
    name: 'a RuntimeClass that does not exist is refused',
    spec: { runtimeClassName: 'missing' },
    error: 'pods "p" is forbidden: pod rejected: RuntimeClass "missing" not found',
  },
  {
    name: 'nil pod node selector: the class’s',
    spec: { runtimeClassName: 'scheduled' },
    want: { nodeSelector: { 'example.com/runtime': 'kata', zone: 'a' } },
  },
  {
    name: 'node selectors merged',
    spec: { runtimeClassName: 'scheduled', nodeSelector: { disk: 'ssd', zone: 'a' } },
    want: { nodeSelector: { disk: 'ssd', zone: 'a', 'example.com/runtime': 'kata' } },
  },
  {
    name: 'conflicting node selector is refused',
    spec: { runtimeClassName: 'scheduled', nodeSelector: { zone: 'b' } },
    error:
      'pods "p" is forbidden: conflict: runtimeClass.scheduling.nodeSelector[zone] = a; pod.spec.nodeSelector[zone] = b',
  },
  {
    name: 'tolerations merged, one the class’s covers dropped',
    spec: {
      runtimeClassName: 'scheduled',
      tolerations: [
        { key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' },
        { key: 'other', operator: 'Exists' },
      ],
    },
    want: {
      tolerations: [
        { key: 'other', operator: 'Exists' },
        { key: 'example.com/runtime', operator: 'Equal', value: 'kata', effect: 'NoSchedule' },
        { key: 'dedicated', operator: 'Exists' },
      ],
    },
  },
  {
    name: 'a class without scheduling leaves selector and tolerations',
    spec: { runtimeClassName: 'plain', nodeSelector: { a: 'b' } },
    want: { nodeSelector: { a: 'b' }, tolerations: undefined, overhead: undefined },
  },
];

for (const row of rcAdmitRows) {
  test(`RuntimeClass (admit): ${row.name}`, async () => {
    const req = request({ resource: 'pods', object: rcPod(row.spec) });
    const admitting = runtimePlugin().admit!(req, recordingContext());
    if (row.error) {
      await assert.rejects(admitting, { message: row.error });
      return;
    }
    await admitting;
    const spec = (req.object as Obj)['spec'];
    for (const [k, v] of Object.entries(row.want ?? {})) assert.deepEqual(spec[k], v, k);
  });
}

const rcValidateRows: { name: string; spec: Obj; error?: string }[] = [
  { name: 'no overhead, no class', spec: {} },
  {
    name: 'overhead matching the class',
    spec: { runtimeClassName: 'with-overhead', overhead: { cpu: '100m', memory: '32Mi' } },
  },
  {
    name: 'overhead without a class is refused',
    spec: { overhead: { cpu: '100m' } },
    error:
      'pods "p" is forbidden: pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead',
  },
  {
    name: 'overhead with a class that has none is refused',
    spec: { runtimeClassName: 'plain', overhead: { cpu: '100m' } },
    error:
      'pods "p" is forbidden: pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead',
  },
  {
    name: 'overhead differing from the class is refused',
    spec: { runtimeClassName: 'with-overhead', overhead: { cpu: '100m' } },
    error:
      "pods \"p\" is forbidden: pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead",
  },
];

for (const row of rcValidateRows) {
  test(`RuntimeClass (validate): ${row.name}`, async () => {
    const validating = runtimePlugin().validate!(
      request({ resource: 'pods', object: rcPod(row.spec) }),
      recordingContext()
    );
    if (row.error) await assert.rejects(validating, { message: row.error });
    else await validating;
  });
}
