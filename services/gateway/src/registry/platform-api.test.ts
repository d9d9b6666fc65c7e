// The platform kinds through a real suite (etcd, NATS, storage, authorizer, gateway): each
// kind's realistic object created, read back and listed as a Table with upstream's columns;
// defaults of SetDefaults_*; strategies' errors as 422 Status naming upstream's field paths;
// Secret stringData merged into data and never stored; immutable Secrets and ConfigMaps; a
// subresource a kind does not have is 404; the system priority classes exist from the start.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  apiregistration,
  core,
  discovery,
  flowcontrol,
  networking,
  node,
  scheduling,
  storage,
} from '@orch/apimachinery/apis';
import { realisticObjects } from '@orch/apimachinery/testdata';
import { startSuite, waitFor } from '@orch/testing';
import type { Suite } from '@orch/testing';

type Json = Record<string, any>;
let suite: Suite;

/** The platform kinds: persistent volumes and claims, networking, discovery, storage, scheduling, node, flowcontrol and APIServices. */
const platformResources = [
  ...core.resources.filter((d) =>
    ['persistentvolumes', 'persistentvolumeclaims'].includes(d.resource)
  ),
  ...[networking, discovery, storage, scheduling, node, flowcontrol, apiregistration]
    .flatMap((g) => g.resources)
    // served without --runtime-config: storage.orch.io/v1beta1 (VolumeAttributesClass) is a beta
    // off by default, tried in resourceconfig/api-versions.test.ts
    .filter((d) => !/(alpha|beta)\d+$/.test(d.version)),
];

const pathOf = (def: (typeof platformResources)[number], ns = 'default'): string =>
  `${def.group === '' ? '/api' : `/apis/${def.group}`}/${def.version}${
    def.namespaced ? `/namespaces/${ns}` : ''
  }/${def.resource}`;
const defOf = (resource: string) => platformResources.find((d) => d.resource === resource)!;
const causes = (body: unknown): string[] =>
  ((body as Json)['details']?.['causes'] ?? []).map((c: Json) => `${c.field}: ${c.message}`);
/** What a client sends: the realistic object without server-set fields. */
function sendable(key: string): Json {
  const o = structuredClone(realisticObjects[key]!) as Json;
  const { name, namespace, labels, annotations } = o['metadata'];
  o['metadata'] = { name, ...(namespace ? { namespace } : {}), labels, annotations };
  return o;
}
const table = { accept: 'application/json;as=Table;v=v1;g=meta.orch.io' };

before(async () => {
  suite = await startSuite();
});

after(async () => {
  await suite.stop();
});

test('every platform kind: its realistic object is created, read back with its spec, and listed as a Table with upstream columns', async () => {
  for (const def of platformResources) {
    const key = `${def.group === '' ? '' : `${def.group}/`}${def.version}/${def.kind}`;
    const body = sendable(key);
    const collection = pathOf(def, body['metadata'].namespace);
    const created = await suite.request(0, 'POST', collection, body);
    assert.equal(created.status, 201, `${key}: ${JSON.stringify(created.body)}`);
    const got = await suite.request(0, 'GET', `${collection}/${body['metadata'].name}`);
    assert.equal(got.status, 200, key);
    for (const f of Object.keys(body).filter((k) => !['metadata', 'status'].includes(k)))
      assert.deepEqual((got.body as Json)[f], body[f], `${key} ${f}`);
    const t = await suite.request(0, 'GET', collection, undefined, table);
    assert.equal(t.status, 200, key);
    const tb = t.body as Json;
    assert.equal(tb['kind'], 'Table');
    assert.ok(tb['columnDefinitions'].length > 2, `${key} has its own columns`);
    assert.equal(tb['columnDefinitions'].at(-1).name === 'Created At', false, key);
    assert.ok(
      tb['rows'].some((r: Json) => r['cells'][0] === body['metadata'].name),
      `${key} row`
    );
  }
});

test('status subresources: a write to the object keeps status, the status subresource writes it (VolumeAttachment)', async () => {
  const def = defOf('volumeattachments');
  const p = `${pathOf(def)}/csi-0123456789abcdef`;
  const va = (await suite.request(0, 'GET', p)).body as Json;
  assert.deepEqual(va['status'], { attached: false }, 'status a client sent on create was reset');
  va['status'] = { attached: true };
  const put = await suite.request(0, 'PUT', `${p}/status`, va);
  assert.equal(put.status, 200, JSON.stringify(put.body));
  assert.equal((put.body as Json)['status'].attached, true);
  const spec = structuredClone(put.body as Json);
  spec['spec'].nodeName = 'node-2';
  const refused = await suite.request(0, 'PUT', p, spec);
  assert.equal(refused.status, 422);
  assert.deepEqual(
    causes(refused.body).map((c) => c.split(':')[0]),
    ['spec'],
    'ValidateVolumeAttachmentUpdate: spec is immutable'
  );
});

test('SetDefaults_*: PersistentVolume reclaim policy Retain and phase Pending, StorageClass Delete/Immediate, CSIDriver, PriorityClass, NetworkPolicy policyTypes, IngressClass parameters scope', async () => {
  const pv = await suite.request(0, 'POST', pathOf(defOf('persistentvolumes')), {
    metadata: { name: 'pv-defaults' },
    spec: {
      capacity: { storage: '1Gi' },
      accessModes: ['ReadWriteOnce'],
      hostPath: { path: '/data' },
    },
  });
  assert.equal(pv.status, 201, JSON.stringify(pv.body));
  assert.equal((pv.body as Json)['spec'].persistentVolumeReclaimPolicy, 'Retain');
  assert.equal((pv.body as Json)['spec'].volumeMode, 'Filesystem');
  assert.equal((pv.body as Json)['status'].phase, 'Pending');
  const sc = await suite.request(0, 'POST', pathOf(defOf('storageclasses')), {
    metadata: { name: 'sc-defaults' },
    provisioner: 'example.com/nfs',
  });
  assert.equal(sc.status, 201, JSON.stringify(sc.body));
  assert.equal((sc.body as Json)['reclaimPolicy'], 'Delete');
  assert.equal((sc.body as Json)['volumeBindingMode'], 'Immediate');
  const d = await suite.request(0, 'POST', pathOf(defOf('csidrivers')), {
    metadata: { name: 'defaults.example.com' },
    spec: {},
  });
  assert.equal(d.status, 201, JSON.stringify(d.body));
  assert.deepEqual((d.body as Json)['spec'], {
    attachRequired: true,
    podInfoOnMount: false,
    volumeLifecycleModes: ['Persistent'],
    storageCapacity: false,
    fsGroupPolicy: 'ReadWriteOnceWithFSType',
    requiresRepublish: false,
    seLinuxMount: false,
  });
  const pc = await suite.request(0, 'POST', pathOf(defOf('priorityclasses')), {
    metadata: { name: 'pc-defaults' },
    value: 10,
  });
  assert.equal((pc.body as Json)['preemptionPolicy'], 'PreemptLowerPriority');
  const np = await suite.request(0, 'POST', pathOf(defOf('networkpolicies')), {
    metadata: { name: 'np-defaults' },
    spec: { podSelector: {}, egress: [{}] },
  });
  assert.deepEqual((np.body as Json)['spec'].policyTypes, ['Ingress', 'Egress']);
  const ic = await suite.request(0, 'POST', pathOf(defOf('ingressclasses')), {
    metadata: { name: 'ic-defaults' },
    spec: { controller: 'example.com/ingress', parameters: { kind: 'Params', name: 'p' } },
  });
  assert.equal(ic.status, 201, JSON.stringify(ic.body));
  assert.equal((ic.body as Json)['spec'].parameters.scope, 'Cluster');
});

test('strategies answer 422 with upstream field paths and messages, and store nothing', async () => {
  const cases: [string, Json, string[]][] = [
    [
      'ingresses',
      {
        metadata: { name: 'bad' },
        spec: {
          rules: [
            {
              host: '10.0.0.1',
              http: {
                paths: [{ path: 'x', pathType: 'Prefix', backend: { service: { name: 'web' } } }],
              },
            },
          ],
        },
      },
      [
        'spec.rules[0].host: Invalid value: "10.0.0.1": must be a DNS name, not an IP address',
        'spec.rules[0].http.paths[0].path: Invalid value: "x": must be an absolute path',
        'spec.rules[0].http.paths[0].backend: Required value: port name or number is required',
      ],
    ],
    [
      'priorityclasses',
      { metadata: { name: 'system-mine' }, value: 2000000000 },
      [
        "metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only",
        'value: Forbidden: maximum allowed value of a user defined priority is 1000000000',
      ],
    ],
    [
      'persistentvolumeclaims',
      { metadata: { name: 'bad' }, spec: { accessModes: [], resources: { requests: {} } } },
      [
        'spec.accessModes: Required value: at least 1 access mode is required',
        'spec.resources.requests[storage]: Required value',
      ],
    ],
    [
      'prioritylevelconfigurations',
      {
        metadata: { name: 'bad' },
        spec: {
          type: 'Limited',
          limited: { limitResponse: { type: 'Queue', queuing: { queues: 4, handSize: 8 } } },
        },
      },
      [
        'spec.limited.limitResponse.queuing.handSize: Invalid value: 8: should not be greater than queues (4)',
      ],
    ],
  ];
  for (const [resource, body, want] of cases) {
    const def = defOf(resource);
    const r = await suite.request(0, 'POST', pathOf(def), body);
    assert.equal(r.status, 422, resource);
    assert.equal((r.body as Json)['reason'], 'Invalid');
    assert.deepEqual(causes(r.body), want, resource);
    const get = await suite.request(0, 'GET', `${pathOf(def)}/${body['metadata'].name}`);
    assert.equal(get.status, 404, `${resource} stored nothing`);
  }
});

test('Secret stringData is merged into data (replacing a key of the same name) on create and update, and never stored', async () => {
  const p = '/api/v1/namespaces/default/secrets';
  const created = await suite.request(0, 'POST', p, {
    metadata: { name: 'merged' },
    data: { a: Buffer.from('old').toString('base64'), b: Buffer.from('kept').toString('base64') },
    stringData: { a: 'new', c: 'plain' },
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const decode = (s: Json): Record<string, string> =>
    Object.fromEntries(
      Object.entries(s['data'] as Record<string, string>).map(([k, v]) => [
        k,
        Buffer.from(v, 'base64').toString(),
      ])
    );
  assert.deepEqual(decode(created.body as Json), { a: 'new', b: 'kept', c: 'plain' });
  assert.equal((created.body as Json)['stringData'], undefined);
  const stored = (await suite.request(0, 'GET', `${p}/merged`)).body as Json;
  assert.equal(stored['stringData'], undefined);
  stored['stringData'] = { b: 'changed' };
  const put = await suite.request(0, 'PUT', `${p}/merged`, stored);
  assert.equal(put.status, 200);
  assert.deepEqual(decode(put.body as Json), { a: 'new', b: 'changed', c: 'plain' });
  const patched = await suite.request(
    0,
    'PATCH',
    `${p}/merged`,
    { stringData: { d: 'patched' } },
    { 'content-type': 'application/merge-patch+json' }
  );
  assert.equal(patched.status, 200, JSON.stringify(patched.body));
  assert.equal(decode(patched.body as Json)['d'], 'patched');
  assert.equal((patched.body as Json)['stringData'], undefined);
});

test('Secret types: kubernetes.io/tls needs tls.crt and tls.key, basic-auth a username or password, the type never changes', async () => {
  const p = '/api/v1/namespaces/default/secrets';
  const tls = await suite.request(0, 'POST', p, {
    metadata: { name: 'tls' },
    type: 'kubernetes.io/tls',
    stringData: { 'tls.crt': 'x' },
  });
  assert.equal(tls.status, 422);
  assert.deepEqual(causes(tls.body), ['data[tls.key]: Required value']);
  const basic = await suite.request(0, 'POST', p, {
    metadata: { name: 'basic' },
    type: 'kubernetes.io/basic-auth',
    stringData: { password: 's3cret' },
  });
  assert.equal(basic.status, 201);
  const changed = { ...(basic.body as Json), type: 'Opaque' };
  const r = await suite.request(0, 'PUT', `${p}/basic`, changed);
  assert.equal(r.status, 422);
  assert.deepEqual(causes(r.body), ['type: Invalid value: "Opaque": field is immutable']);
});

test('immutable Secrets and ConfigMaps: data changes and unsetting immutable are refused with upstream messages', async () => {
  for (const [resource, body] of [
    ['secrets', { metadata: { name: 'frozen' }, immutable: true, stringData: { k: 'v' } }],
    ['configmaps', { metadata: { name: 'frozen' }, immutable: true, data: { k: 'v' } }],
  ] as const) {
    const p = `/api/v1/namespaces/default/${resource}`;
    const created = await suite.request(0, 'POST', p, body);
    assert.equal(created.status, 201, resource);
    const obj = created.body as Json;
    const dataChange = structuredClone(obj);
    dataChange['data'] = { k: resource === 'secrets' ? Buffer.from('w').toString('base64') : 'w' };
    const r1 = await suite.request(0, 'PUT', `${p}/frozen`, dataChange);
    assert.equal(r1.status, 422, resource);
    assert.deepEqual(causes(r1.body), [
      'data: Forbidden: field is immutable when `immutable` is set',
    ]);
    const unset = structuredClone(obj);
    unset['immutable'] = false;
    const r2 = await suite.request(0, 'PUT', `${p}/frozen`, unset);
    assert.deepEqual(causes(r2.body), [
      'immutable: Forbidden: field is immutable when `immutable` is set',
    ]);
    const labels = structuredClone(obj);
    labels['metadata'].labels = { ok: 'yes' };
    assert.equal((await suite.request(0, 'PUT', `${p}/frozen`, labels)).status, 200, resource);
  }
});

test('a GET or write to a subresource a kind does not have is 404 "the server could not find the requested resource"', async () => {
  await suite.request(0, 'POST', '/api/v1/namespaces/default/configmaps', {
    metadata: { name: 'plain' },
  });
  for (const [method, path] of [
    ['GET', '/api/v1/namespaces/default/configmaps/plain/status'],
    ['PUT', '/api/v1/namespaces/default/configmaps/plain/status'],
    ['GET', '/apis/storage.orch.io/v1/storageclasses/fast/status'],
    ['PATCH', '/apis/scheduling.orch.io/v1/priorityclasses/high-priority/scale'],
  ] as const) {
    const r = await suite.request(0, method, path, method === 'GET' ? undefined : {}, {
      'content-type': method === 'PATCH' ? 'application/merge-patch+json' : 'application/json',
    });
    assert.equal(r.status, 404, `${method} ${path}`);
    assert.equal((r.body as Json)['reason'], 'NotFound');
    assert.equal((r.body as Json)['message'], 'the server could not find the requested resource');
  }
});

test('the system priority classes exist from the start and cannot change value', async () => {
  const p = '/apis/scheduling.orch.io/v1/priorityclasses';
  await waitFor(
    'the system priority classes',
    async () =>
      (await suite.request(0, 'GET', `${p}/system-node-critical`)).status === 200 &&
      (await suite.request(0, 'GET', `${p}/system-cluster-critical`)).status === 200,
    { timeoutMs: 60_000 }
  );
  const node = (await suite.request(0, 'GET', `${p}/system-node-critical`)).body as Json;
  assert.equal(node['value'], 2000001000);
  const cluster = (await suite.request(0, 'GET', `${p}/system-cluster-critical`)).body as Json;
  assert.equal(cluster['value'], 2000000000);
  cluster['value'] = 5;
  const r = await suite.request(0, 'PUT', `${p}/system-cluster-critical`, cluster);
  assert.equal(r.status, 422);
  assert.ok(causes(r.body).includes('value: Forbidden: may not be changed in an update.'));
});

test('local APIServices: one per built-in group version, Local and Available, as upstream prints them', async () => {
  const path = '/apis/apiregistration.orch.io/v1/apiservices';
  await waitFor(
    'v1.apps Available',
    async () => {
      const r = await suite.request(0, 'GET', `${path}/v1.apps`);
      return r.status === 200 && (r.body as Json)['status']?.conditions?.[0]?.status === 'True';
    },
    { timeoutMs: 15_000 }
  );
  const t = await suite.request(0, 'GET', path, undefined, table);
  const rows = new Map(
    ((t.body as Json)['rows'] as Json[]).map((r) => [r['cells'][0], r['cells'].slice(1, 3)])
  );
  for (const name of ['v1.', 'v1.apps', 'v2.autoscaling', 'v1.rbac.authorization.orch.io'])
    assert.deepEqual(rows.get(name), ['Local', 'True'], name);
  const core = (await suite.request(0, 'GET', `${path}/v1.`)).body as Json;
  assert.deepEqual(core['spec'], {
    version: 'v1',
    groupPriorityMinimum: 18000,
    versionPriority: 1,
  });
  assert.equal(core['metadata'].labels['kube-aggregator.kubernetes.io/automanaged'], 'onstart');
  assert.equal(core['status'].conditions[0].reason, 'Local');
});
