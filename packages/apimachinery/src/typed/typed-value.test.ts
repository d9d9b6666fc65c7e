// Typed values over every list and map type of the spec's merge-strategy markers: field sets
// (ToFieldSet), comparison, merge, removal, validation and the topology-change paragraph.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { JsonValue } from '../fieldpath/index.js';
import {
  Set as FieldSet,
  keyByFields,
  makePath,
  pathString,
  setFromJSON,
  setToJSON,
} from '../fieldpath/index.js';
import { builtinSchemaModel } from '../schema-model/index.js';
import { realisticObjects } from '../testdata/index.js';
import { ValidationErrors } from './helpers.js';
import type { TypeRef } from './schema.js';
import { Schema, deducedTypeRef } from './schema.js';
import {
  ParseableType,
  deducedParseableType,
  parseableTypeFor,
  reconcileWithSchema,
} from './typed-value.js';

const str: TypeRef = { inlined: { scalar: 'string' } };
const num: TypeRef = { inlined: { scalar: 'numeric' } };

/** A schema with one field of every kind the markers describe. */
function markerSchema(overrides: Record<string, TypeRef> = {}): ParseableType {
  const fields: Record<string, TypeRef> = {
    scalar: num,
    atomicList: {
      inlined: { list: { elementType: str, elementRelationship: 'atomic', keys: [] } },
    },
    setList: {
      inlined: { list: { elementType: str, elementRelationship: 'associative', keys: [] } },
    },
    mapList: {
      inlined: {
        list: {
          elementType: { namedType: 'item' },
          elementRelationship: 'associative',
          keys: ['name', 'proto'],
        },
      },
    },
    granularMap: {
      inlined: { map: { fields: [], elementType: str, elementRelationship: 'separable' } },
    },
    atomicMap: {
      inlined: { map: { fields: [], elementType: str, elementRelationship: 'atomic' } },
    },
    struct: { namedType: 'item' },
    atomicStruct: { namedType: 'item', elementRelationship: 'atomic' },
    untyped: deducedTypeRef,
    ...overrides,
  };
  const schema = new Schema([
    [
      'root',
      {
        map: {
          fields: Object.entries(fields).map(([name, type]) => ({ name, type })),
          elementRelationship: 'separable',
        },
      },
    ],
    [
      'item',
      {
        map: {
          fields: [
            { name: 'name', type: str },
            { name: 'proto', type: str, default: 'TCP' },
            { name: 'value', type: str },
            { name: 'other', type: str },
          ],
          elementRelationship: 'separable',
        },
      },
    ],
  ]);
  return new ParseableType(schema, { namedType: 'root' });
}

const paths = (s: FieldSet): string[] => s.paths().map(pathString);

test('toFieldSet: each marker of the merge-strategy table', () => {
  const t = markerSchema();
  const rows: { name: string; obj: Record<string, JsonValue>; want: string[] }[] = [
    { name: 'scalar: the field itself', obj: { scalar: 1 }, want: ['.scalar'] },
    {
      name: 'list-type atomic: one member for the whole list',
      obj: { atomicList: ['a', 'b'] },
      want: ['.atomicList'],
    },
    {
      name: 'list-type set: one member per element',
      obj: { setList: ['b', 'a'] },
      want: ['.setList[="a"]', '.setList[="b"]'],
    },
    {
      name: 'list-type map: one member per entry keyed by list-map-keys, a missing key takes its default',
      obj: {
        mapList: [
          { name: 'x', value: 'v' },
          { name: 'x', proto: 'UDP' },
        ],
      },
      want: [
        '.mapList[name="x",proto="TCP"]',
        '.mapList[name="x",proto="UDP"]',
        '.mapList[name="x",proto="TCP"].name',
        '.mapList[name="x",proto="TCP"].value',
        '.mapList[name="x",proto="UDP"].name',
        '.mapList[name="x",proto="UDP"].proto',
      ],
    },
    {
      name: 'map-type granular: managers own their own keys',
      obj: { granularMap: { a: '1', b: '2' } },
      want: ['.granularMap.a', '.granularMap.b'],
    },
    {
      name: 'map-type atomic: the map as a whole',
      obj: { atomicMap: { a: '1', b: '2' } },
      want: ['.atomicMap'],
    },
    {
      name: 'struct: its fields, not itself',
      obj: { struct: { name: 'n', value: 'v' } },
      want: ['.struct.name', '.struct.value'],
    },
    {
      name: 'struct with map-type atomic: the struct as a whole',
      obj: { atomicStruct: { name: 'n' } },
      want: ['.atomicStruct'],
    },
    { name: 'an empty struct is a member', obj: { struct: {} }, want: ['.struct'] },
    {
      name: 'null is a member',
      obj: { struct: null, mapList: null },
      want: ['.mapList', '.struct'],
    },
    {
      name: 'no schema: keys behave like struct fields, lists are atomic',
      obj: { untyped: { a: { b: 1 }, l: [{ x: 1 }] } },
      // Map entries that are not declared fields are members themselves, as upstream.
      want: ['.untyped.a', '.untyped.l', '.untyped.a.b'],
    },
  ];
  for (const r of rows)
    assert.deepEqual(paths(t.fromUnstructured(r.obj).toFieldSet()), r.want, r.name);
});

test('toFieldSet: kinds without a schema are unstructured (deduced type)', () => {
  const tv = deducedParseableType().fromUnstructured({
    apiVersion: 'example.io/v1',
    kind: 'Widget',
    spec: { items: [{ name: 'a' }], size: { x: 1 } },
  });
  assert.deepEqual(paths(tv.toFieldSet()), [
    '.apiVersion',
    '.kind',
    '.spec',
    '.spec.items',
    '.spec.size',
    '.spec.size.x',
  ]);
  const model = builtinSchemaModel();
  const unknown = parseableTypeFor(model, { group: 'example.io', version: 'v1', kind: 'Widget' });
  assert.equal(unknown, deducedParseableType());
});

test('toFieldSet over the schema model: list-map-keys, legacy merge key, atomic map, set', () => {
  const model = builtinSchemaModel();
  const pod = parseableTypeFor(model, { group: '', version: 'v1', kind: 'Pod' });
  const tv = pod.fromUnstructured({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p', finalizers: ['a/b'], labels: { app: 'x' } },
    spec: {
      containers: [{ name: 'c', image: 'i', ports: [{ containerPort: 80 }], args: ['x', 'y'] }],
      nodeSelector: { disk: 'ssd' },
    },
  });
  const s = tv.toFieldSet();
  const c = keyByFields('name', 'c');
  // Container ports keyed by containerPort and protocol; protocol defaults to TCP.
  assert.ok(
    s.has(
      makePath(
        'spec',
        'containers',
        c,
        'ports',
        keyByFields('containerPort', 80, 'protocol', 'TCP')
      )
    )
  );
  assert.ok(s.has(makePath('spec', 'containers', c, 'args')), 'atomic list');
  assert.ok(!s.has(makePath('spec', 'containers', c, 'args', { value: 'x' })));
  assert.ok(s.has(makePath('spec', 'nodeSelector')), 'map-type atomic');
  assert.ok(!s.has(makePath('spec', 'nodeSelector', 'disk')));
  assert.ok(s.has(makePath('metadata', 'finalizers', { value: 'a/b' })), 'list-type set');
  assert.ok(s.has(makePath('metadata', 'labels', 'app')), 'granular map');

  // ServiceAccount.secrets has no list type, only the legacy merge marker keyed by name; its
  // items are ObjectReferences, an atomic struct: each item is owned whole.
  const sa = parseableTypeFor(model, { group: '', version: 'v1', kind: 'ServiceAccount' });
  const saSet = sa
    .fromUnstructured({ secrets: [{ name: 's1' }, { name: 's2', namespace: 'n' }] })
    .toFieldSet();
  assert.deepEqual(paths(saSet), ['.secrets[name="s1"]', '.secrets[name="s2"]']);
});

test('toFieldSet over the schema model: atomic structs (upstream +structType=atomic) are owned whole', () => {
  const model = builtinSchemaModel();
  const deploy = parseableTypeFor(model, { group: 'apps', version: 'v1', kind: 'Deployment' });
  const tv = deploy.fromUnstructured({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name: 'd',
      ownerReferences: [{ apiVersion: 'v1', kind: 'X', name: 'x', uid: 'u1' }],
    },
    spec: {
      selector: { matchLabels: { app: 'x' } },
      template: {
        spec: {
          containers: [
            {
              name: 'c',
              env: [{ name: 'E', valueFrom: { configMapKeyRef: { name: 'cm', key: 'k' } } }],
            },
          ],
        },
      },
    },
  });
  const s = tv.toFieldSet();
  assert.ok(s.has(makePath('spec', 'selector')), 'LabelSelector is atomic');
  assert.ok(!s.has(makePath('spec', 'selector', 'matchLabels')));
  const ref = makePath('metadata', 'ownerReferences', keyByFields('uid', 'u1'));
  assert.ok(s.has(ref), 'OwnerReference is atomic');
  assert.ok(!s.has(makePath('metadata', 'ownerReferences', keyByFields('uid', 'u1'), 'name')));
  const env = makePath('spec', 'template', 'spec', 'containers', keyByFields('name', 'c'), 'env');
  const ck = [...env, keyByFields('name', 'E'), 'valueFrom', 'configMapKeyRef'];
  assert.ok(s.has(makePath(...ck)), 'ConfigMapKeySelector is atomic');
  assert.ok(!s.has(makePath(...ck, 'key')));
});

test('validation: a value that does not fit the schema is an error naming the field', () => {
  const t = markerSchema();
  const rows: [Record<string, JsonValue>, RegExp][] = [
    [{ scalar: 'x' }, /^\.scalar: expected numeric, got string$/],
    [{ atomicList: { a: 1 } }, /^\.atomicList: expected list, got map$/],
    [{ struct: [1] }, /^\.struct: expected map, got list$/],
    [{ nope: 1 }, /^\.nope: field not declared in schema$/],
    [{ mapList: [{ value: 'v' }] }, /omits key field "name"/],
    [
      { mapList: [{ name: 'a' }, { name: 'a', proto: 'TCP' }] },
      /^\.mapList: duplicate entries for key \{"name":"a","proto":"TCP"\}$/,
    ],
    [{ setList: [{ a: 1 }] }, /element that's a map type/],
    [{ setList: ['a', 'a'] }, /duplicate entries/],
  ];
  for (const [obj, re] of rows) {
    assert.throws(
      () => t.fromUnstructured(obj),
      (err: unknown) => err instanceof ValidationErrors && re.test(err.message),
      JSON.stringify(obj)
    );
  }
  // Objects already stored may carry duplicates (upstream AllowDuplicates).
  t.fromUnstructured({ setList: ['a', 'a'] }, { allowDuplicates: true });
});

test('compare: removed, modified and added over every list and map type', () => {
  const t = markerSchema();
  const lhs = t.fromUnstructured({
    scalar: 1,
    atomicList: ['a'],
    setList: ['a', 'b'],
    mapList: [{ name: 'x', value: '1' }, { name: 'y' }],
    granularMap: { a: '1', b: '2' },
    atomicMap: { a: '1' },
  });
  const rhs = t.fromUnstructured({
    scalar: 2,
    atomicList: ['a', 'b'],
    setList: ['b', 'c'],
    mapList: [{ name: 'x', value: '2' }, { name: 'z' }],
    granularMap: { a: '1', c: '3' },
    atomicMap: { a: '1' },
  });
  const c = lhs.compare(rhs);
  assert.deepEqual(paths(c.modified), [
    '.atomicList',
    '.scalar',
    '.mapList[name="x",proto="TCP"].value',
  ]);
  assert.deepEqual(paths(c.added), [
    '.granularMap.c',
    '.mapList[name="z",proto="TCP"]',
    '.mapList[name="z",proto="TCP"].name',
    '.setList[="c"]',
  ]);
  assert.deepEqual(paths(c.removed), [
    '.granularMap.b',
    '.mapList[name="y",proto="TCP"]',
    '.mapList[name="y",proto="TCP"].name',
    '.setList[="a"]',
  ]);
  assert.ok(lhs.compare(lhs).isSame());
});

test('merge: the applied value wins at the leaves, lists and maps merge per their type', () => {
  const t = markerSchema();
  const live = t.fromUnstructured({
    scalar: 1,
    atomicList: ['a', 'b'],
    setList: ['a', 'b'],
    mapList: [{ name: 'x', value: '1', other: 'o' }, { name: 'y' }],
    granularMap: { a: '1', b: '2' },
    atomicMap: { a: '1', b: '2' },
    atomicStruct: { name: 'n', value: 'v' },
  });
  const config = t.fromUnstructured({
    scalar: 2,
    atomicList: ['c'],
    setList: ['c', 'a'],
    mapList: [{ name: 'z' }, { name: 'x', value: '2' }],
    granularMap: { b: '3' },
    atomicMap: { c: '3' },
    atomicStruct: { name: 'm' },
  });
  assert.deepEqual(live.merge(config).value, {
    scalar: 2,
    atomicList: ['c'],
    // The applied order for the items it has; live items it lacks keep their place.
    setList: ['c', 'a', 'b'],
    mapList: [{ name: 'z' }, { name: 'x', value: '2', other: 'o' }, { name: 'y' }],
    granularMap: { a: '1', b: '3' },
    atomicMap: { c: '3' },
    atomicStruct: { name: 'm' },
  });
});

test('removeItems and extractItems', () => {
  const t = markerSchema();
  const tv = t.fromUnstructured({
    scalar: 1,
    setList: ['a', 'b'],
    mapList: [
      { name: 'x', value: '1' },
      { name: 'y', value: '2' },
    ],
    granularMap: { a: '1' },
    atomicMap: { a: '1' },
  });
  const x = keyByFields('name', 'x', 'proto', 'TCP');
  const set = FieldSet.of(
    makePath('setList', { value: 'a' }),
    makePath('mapList', x),
    makePath('granularMap', 'a'),
    makePath('atomicMap')
  );
  // A map left with nothing becomes null, as upstream's (the typed object then drops it).
  assert.deepEqual(tv.removeItems(set).value, {
    scalar: 1,
    setList: ['b'],
    mapList: [{ name: 'y', value: '2' }],
    granularMap: null,
  });
  assert.deepEqual(tv.extractItems(set).value, {
    setList: ['a'],
    mapList: [{ name: 'x', value: '1' }],
    granularMap: { a: '1' },
    atomicMap: { a: '1' },
  });
});

test('topology change: from granular to atomic, an owner of a part owns the whole', () => {
  // Recorded while granularMap, setList and struct were fine-grained; now they are atomic.
  const before = FieldSet.of(
    makePath('granularMap', 'a'),
    makePath('setList', { value: 'x' }),
    makePath('struct', 'name'),
    makePath('scalar')
  );
  const atomicList: TypeRef = {
    inlined: { list: { elementType: str, elementRelationship: 'atomic', keys: [] } },
  };
  const t = markerSchema({
    granularMap: {
      inlined: { map: { fields: [], elementType: str, elementRelationship: 'atomic' } },
    },
    setList: atomicList,
    struct: { namedType: 'item', elementRelationship: 'atomic' },
  });
  const live = t.fromUnstructured({
    granularMap: { a: '1' },
    setList: ['x'],
    struct: { name: 'n' },
    scalar: 1,
  });
  const reconciled = reconcileWithSchema(before, live);
  assert.ok(reconciled);
  assert.deepEqual(paths(reconciled), ['.granularMap', '.scalar', '.setList', '.struct']);
});

test('topology change: from atomic to granular, the owner keeps the top-level field only', () => {
  const before = FieldSet.of(makePath('atomicMap'), makePath('scalar'));
  const t = markerSchema({
    atomicMap: {
      inlined: { map: { fields: [], elementType: str, elementRelationship: 'separable' } },
    },
  });
  const live = t.fromUnstructured({ atomicMap: { a: '1' }, scalar: 1 });
  // Nothing to derive: the set is unchanged (the owner owns .atomicMap, none of its keys).
  assert.equal(reconcileWithSchema(before, live), undefined);
  assert.ok(!before.has(makePath('atomicMap', 'a')));
});

test('toFieldSet of a pod matches the fields kube-apiserver records for it', () => {
  // The Update kube-apiserver records for `kubectl apply` creating a pod (the live object is
  // the zero Pod, the new one the request after defaults), minus the metadata fields it
  // strips. Expected text: its own output, logged in cloud-custodian/cloud-custodian
  // docs/source/kubernetes/controllermode.rst.
  const model = builtinSchemaModel();
  const pod = parseableTypeFor(model, { group: '', version: 'v1', kind: 'Pod' });
  const zero = pod.fromUnstructured({
    metadata: { creationTimestamp: null },
    spec: { containers: null },
    status: {},
  });
  const created = pod.fromUnstructured({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: 'nginx',
      namespace: 'default',
      creationTimestamp: null,
      annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{}\n' },
    },
    spec: {
      containers: [
        {
          name: 'nginx',
          image: 'nginx:1.14.2',
          ports: [{ containerPort: 80, protocol: 'TCP' }],
          resources: {},
          terminationMessagePath: '/dev/termination-log',
          terminationMessagePolicy: 'File',
          imagePullPolicy: 'IfNotPresent',
        },
      ],
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 30,
      dnsPolicy: 'ClusterFirst',
      securityContext: {},
      schedulerName: 'default-scheduler',
      enableServiceLinks: true,
    },
    status: {},
  });
  const c = zero.compare(created);
  const changed = c.modified.union(c.added).difference(c.removed);
  const stripped = FieldSet.of(
    makePath('apiVersion'),
    makePath('kind'),
    makePath('metadata'),
    makePath('metadata', 'name'),
    makePath('metadata', 'namespace'),
    makePath('metadata', 'creationTimestamp')
  );
  assert.equal(
    setToJSON(changed.difference(stripped)),
    `{"f:metadata":{"f:annotations":{".":{},"f:kubectl.kubernetes.io/last-applied-configuration":{}}},"f:spec":{"f:containers":{"k:{\\"name\\":\\"nginx\\"}":{".":{},"f:image":{},"f:imagePullPolicy":{},"f:name":{},"f:ports":{".":{},"k:{\\"containerPort\\":80,\\"protocol\\":\\"TCP\\"}":{".":{},"f:containerPort":{},"f:protocol":{}}},"f:resources":{},"f:terminationMessagePath":{},"f:terminationMessagePolicy":{}}},"f:dnsPolicy":{},"f:enableServiceLinks":{},"f:restartPolicy":{},"f:schedulerName":{},"f:securityContext":{},"f:terminationGracePeriodSeconds":{}}}`
  );
});

test('every realistic built-in object validates, and its field set round-trips through fieldsV1', () => {
  const model = builtinSchemaModel();
  for (const [key, obj] of Object.entries(realisticObjects)) {
    const slash = key.lastIndexOf('/');
    const gv = key.slice(0, slash);
    const [group, version] = gv.includes('/') ? (gv.split('/') as [string, string]) : ['', gv];
    const type = parseableTypeFor(model, { group, version, kind: key.slice(slash + 1) });
    const set = type.fromUnstructured(obj as JsonValue).toFieldSet();
    assert.ok(set.size() > 0, key);
    assert.ok(setFromJSON(setToJSON(set)).equals(set), key);
    // Comparing an object with itself finds nothing; with nothing, everything is added.
    const tv = type.fromUnstructured(obj as JsonValue);
    assert.ok(tv.compare(tv).isSame(), key);
    assert.ok(tv.compare(type.fromUnstructured(null)).added.empty(), key);
  }
});
