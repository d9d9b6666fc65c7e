import { test } from 'node:test';
import assert from 'node:assert/strict';
import { builtinResources } from '../registry/index.js';
import { builtinSchemaModel } from './schema-model.js';
import { decodeMessage } from './decode-message.js';
import { encodeMessage } from './encode-message.js';
import { validateObject } from './validate-object.js';
import { realisticObjects, realisticPod } from '../testdata/index.js';

const model = builtinSchemaModel();
const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

test('every built-in kind has a message; stored kinds have a list message, virtual ones none', () => {
  // Virtual kinds (token and access reviews) are operations: their bodies are decoded and
  // answered like any object, but they are never listed, so upstream has no list kind for them.
  for (const def of builtinResources) {
    const k = model.kind({ group: def.group, version: def.version, kind: def.kind });
    assert.ok(k, `${def.group}/${def.version} ${def.kind} has no schema`);
    assert.equal(k.message.jsonFields.has('metadata'), true);
    if (def.virtual)
      assert.equal(k.list, undefined, `${def.kind} is virtual but has a list message`);
    else assert.ok(k.list, `${def.kind}List has no schema`);
  }
});

test('every built-in kind has a realistic object, so the round trip below covers it', () => {
  const keys = new Set(Object.keys(realisticObjects));
  for (const def of builtinResources) {
    const key =
      def.group === '' ? `${def.version}/${def.kind}` : `${def.group}/${def.version}/${def.kind}`;
    assert.ok(keys.has(key), `no realistic ${key}`);
  }
});

test('a string-list message (ExtraValue) is the list itself in JSON and in OpenAPI', () => {
  const review = model.kind({
    group: 'authentication.orch.io',
    version: 'v1',
    kind: 'TokenReview',
  })!.message;
  const obj = { status: { user: { username: 'u', extra: { scopes: ['a', 'b'], none: [] } } } };
  assert.deepEqual(decodeMessage(review, encodeMessage(review, obj)), obj);
  const bad = validateObject(review, { status: { user: { extra: { scopes: 'a', other: [1] } } } });
  assert.deepEqual(
    bad.problems.map((p) => p.field),
    ['status.user.extra[scopes]', 'status.user.extra[other][0]']
  );
});

test('the model carries upstream field numbers, JSON names, descriptions and markers', () => {
  const meta = model.message('orch.api.meta.v1.ObjectMeta');
  assert.ok(meta);
  const num = (n: string): number | undefined => meta.fields.find((f) => f.name === n)?.number;
  assert.deepEqual(
    [
      num('name'),
      num('generateName'),
      num('namespace'),
      num('creationTimestamp'),
      num('labels'),
      num('managedFields'),
    ],
    [1, 2, 3, 8, 11, 17]
  );
  const spec = model.message('orch.api.core.v1.PodSpec');
  const containers = spec?.jsonFields.get('containers')?.field;
  assert.ok(containers);
  assert.equal(containers.number, 2);
  assert.equal(containers.required, true);
  assert.equal(containers.listType, 'map');
  assert.deepEqual(containers.listMapKeys, ['name']);
  assert.equal(containers.patchStrategy, 'merge');
  assert.equal(containers.patchMergeKey, 'name');
  assert.match(containers.description, /containers belonging to the pod/);
  assert.equal(spec?.jsonFields.get('nodeSelector')?.field.mapType, 'atomic');
  const ports = model.message('orch.api.core.v1.Container')?.jsonFields.get('ports')?.field;
  assert.deepEqual(ports?.listMapKeys, ['containerPort', 'protocol']);
  // Inline (embedded) fields: Volume's sources and Probe's handler appear in the parent object.
  const volume = model.message('orch.api.core.v1.Volume');
  assert.deepEqual(
    volume?.jsonFields.get('configMap')?.via.map((f) => f.name),
    ['volumeSource']
  );
  assert.ok(model.message('orch.api.core.v1.Probe')?.jsonFields.has('httpGet'));
  assert.equal(model.message('orch.api.meta.v1.Quantity')?.jsonType, 'quantity');
  assert.equal(model.message('orch.api.meta.v1.IntOrString')?.jsonType, 'int-or-string');
  assert.deepEqual(
    model.kind({ group: '', version: 'v1', kind: 'Pod' })?.message.tableColumns?.map((c) => c.name),
    ['Ready', 'Status', 'Restarts', 'Age', 'IP', 'Node', 'Nominated Node', 'Readiness Gates']
  );
});

test('realistic objects of every kind validate cleanly', () => {
  for (const [key, obj] of Object.entries(realisticObjects)) {
    const k = model.kind(gvkOf(key));
    assert.ok(k, key);
    const copy = clone(obj);
    const r = validateObject(k.message, copy);
    assert.deepEqual(r.unknown, [], key);
    assert.deepEqual(r.problems, [], key);
    assert.deepEqual(copy, obj, `${key} was changed by validation`);
  }
});

test('JSON → protobuf → JSON round trip for every built-in kind', () => {
  for (const [key, obj] of Object.entries(realisticObjects)) {
    const k = model.kind(gvkOf(key));
    assert.ok(k, key);
    const bytes = encodeMessage(k.message, obj);
    assert.ok(bytes.length > 50, key);
    const back = decodeMessage(k.message, bytes) as Record<string, unknown>;
    const { apiVersion: _a, kind: _k, ...rest } = obj;
    assert.deepEqual(back, rest, key);
  }
});

test('a list round trips with its items and list metadata', () => {
  const list = model.kind({ group: '', version: 'v1', kind: 'Pod' })?.list;
  assert.ok(list);
  const { apiVersion: _a, kind: _k, ...pod } = realisticPod;
  const obj = {
    metadata: { resourceVersion: '99', continue: 'abc', remainingItemCount: 0 },
    items: [pod, pod],
  };
  assert.deepEqual(decodeMessage(list, encodeMessage(list, obj)), obj);
});

test('unknown fields are reported with their path and pruned; wrong types and missing required fields are problems', () => {
  const pod = model.kind({ group: '', version: 'v1', kind: 'Pod' });
  assert.ok(pod);
  const obj = clone(realisticPod) as Record<string, any>;
  obj['spec']['foo'] = 1;
  obj['spec']['containers'][0]['imagee'] = 'x';
  obj['metadata']['labelz'] = {};
  obj['spec']['volumes'][0]['configMap']['nmae'] = 'x';
  const r = validateObject(pod.message, obj);
  assert.deepEqual(r.unknown.sort(), [
    'metadata.labelz',
    'spec.containers[0].imagee',
    'spec.foo',
    'spec.volumes[0].configMap.nmae',
  ]);
  assert.deepEqual(r.problems, []);
  assert.equal('foo' in obj['spec'], false);
  assert.equal('imagee' in obj['spec']['containers'][0], false);

  const bad = clone(realisticPod) as Record<string, any>;
  bad['spec']['containers'][0]['ports'][0]['containerPort'] = '8080';
  bad['spec']['containers'][0]['args'] = 'x';
  delete bad['spec']['containers'][1 - 1]['name'];
  bad['spec']['containers'][0]['resources']['limits']['cpu'] = 'lots';
  bad['metadata']['labels'] = ['a'];
  bad['spec']['containers'][0]['livenessProbe']['httpGet']['port'] = true;
  bad['status']['startTime'] = 'yesterday';
  const r2 = validateObject(pod.message, bad);
  const fields = r2.problems.map((p) => `${p.field} ${p.reason}`).sort();
  assert.deepEqual(fields, [
    'metadata.labels FieldValueInvalid',
    'spec.containers[0].args FieldValueInvalid',
    'spec.containers[0].livenessProbe.httpGet.port FieldValueInvalid',
    'spec.containers[0].name FieldValueRequired',
    'spec.containers[0].ports[0].containerPort FieldValueInvalid',
    'spec.containers[0].resources.limits[cpu] FieldValueInvalid',
    'status.startTime FieldValueInvalid',
  ]);
});

test('decoding applies omitempty, keeping zero values of keep_zero fields', () => {
  const dep = model.kind({ group: 'apps', version: 'v1', kind: 'Deployment' });
  assert.ok(dep);
  const bytes = encodeMessage(dep.message, {
    metadata: { name: 'x', namespace: '' },
    spec: { replicas: 0, paused: false, minReadySeconds: 0 },
  });
  assert.deepEqual(decodeMessage(dep.message, bytes), {
    metadata: { name: 'x' },
    spec: { replicas: 0 },
  });
});

test('negative and large integers, and unicode strings, survive the round trip', () => {
  const pod = model.kind({ group: '', version: 'v1', kind: 'Pod' })!.message;
  const obj = {
    metadata: { name: 'p', annotations: { note: 'grüße, 日本, 🚀' }, generation: 2 ** 40 + 3 },
    spec: {
      containers: [{ name: 'c', image: 'i' }],
      priority: -2147483648,
      securityContext: { runAsUser: -5, fsGroup: 9007199254740991 },
    },
    status: {
      containerStatuses: [
        {
          name: 'c',
          ready: false,
          restartCount: 0,
          image: 'i',
          imageID: '',
          state: { terminated: { exitCode: -1, signal: 15 } },
        },
      ],
    },
  };
  assert.deepEqual(decodeMessage(pod, encodeMessage(pod, obj)), obj);
});

function gvkOf(key: string): { group: string; version: string; kind: string } {
  const parts = key.split('/');
  return parts.length === 2
    ? { group: '', version: parts[0]!, kind: parts[1]! }
    : { group: parts[0]!, version: parts[1]!, kind: parts[2]! };
}

test('regression (fuzz): an unknown key with dots or spaces is reported as [key]', () => {
  const group = 'rbac.authorization.orch.io';
  const crb = model.kind({ group, version: 'v1', kind: 'ClusterRoleBinding' });
  assert.ok(crb);
  const roleRef = { '. ': '', kind: 'ClusterRole', name: 'x', apiGroup: 'g' };
  const obj = { metadata: { name: 'a' }, roleRef };
  assert.deepEqual(validateObject(crb.message, obj).unknown, ['roleRef[. ]']);
});

test('regression (fuzz): bytes are padded base64 ("iVBORw" was read back as "iVBORw==")', () => {
  const cm = model.kind({ group: '', version: 'v1', kind: 'ConfigMap' });
  assert.ok(cm);
  const problems = (b: string) =>
    validateObject(cm.message, { metadata: { name: 'a' }, binaryData: { x: b } }).problems;
  assert.deepEqual(problems('iVBORw=='), []);
  assert.deepEqual(problems(''), []);
  assert.deepEqual(
    problems('iVBORw').map((p) => [p.field, p.message]),
    [['binaryData[x]', 'expected base64 string, got string']]
  );
  assert.equal(problems('iVBOR===').length, 1);
});

test('regression (fuzz): empty maps, lists and omitempty zeros are left out, as in binary', () => {
  const deploy = model.kind({ group: 'apps', version: 'v1', kind: 'Deployment' });
  assert.ok(deploy);
  const obj: Record<string, any> = {
    metadata: { name: 'a', labels: {}, finalizers: [], namespace: '' },
    spec: { replicas: 0 },
  };
  validateObject(deploy.message, obj);
  assert.deepEqual(obj, { metadata: { name: 'a' }, spec: { replicas: 0 } });
});
