// The field manager's pieces without a server: managedFields decoding and encoding (identifiers,
// upstream's sort order, errors), the cap of Update entries, the manager's name from a user
// agent, conflict messages, and the chain on a deployment (apply, update, status).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ApiObject } from '@orch/apimachinery/meta';
import { StatusError } from '@orch/apimachinery/errors';
import {
  FieldManager,
  buildManagerIdentifier,
  capUpdateManagers,
  decodeManagedFields,
  encodeManagedFields,
  fieldManagerFor,
  prefixFromUserAgent,
  printManager,
  resetFieldsFor,
} from './index.js';

const entry = (manager: string, operation: 'Apply' | 'Update', time: string, f: object = {}) => ({
  manager,
  operation,
  apiVersion: 'apps/v1',
  time,
  fieldsType: 'FieldsV1',
  fieldsV1: f,
});

test('managedFields entry: identifiers leave out time and fields, and the apiVersion of an Apply', () => {
  assert.equal(
    buildManagerIdentifier({
      manager: 'm',
      operation: 'Update',
      apiVersion: 'v1',
      subresource: 'status',
    }),
    '{"manager":"m","operation":"Update","apiVersion":"v1","subresource":"status"}'
  );
  assert.equal(
    buildManagerIdentifier({ manager: 'm', operation: 'Apply', apiVersion: 'v1', time: 't' }),
    '{"manager":"m","operation":"Apply"}'
  );
});

test('managedFields entry: decode then encode keeps the entries, sorted Apply first, then by time, manager', () => {
  const f = { 'f:spec': { 'f:replicas': {} } };
  const input = [
    entry('b', 'Update', '2024-01-02T00:00:00Z', f),
    entry('a', 'Update', '2024-01-02T00:00:00Z', f),
    entry('z', 'Update', '2024-01-01T00:00:00Z', f),
    entry('c', 'Apply', '2024-01-03T00:00:00Z', { 'f:metadata': { 'f:labels': { 'f:x': {} } } }),
  ];
  const out = encodeManagedFields(decodeManagedFields(input));
  assert.deepEqual(
    out.map((e) => `${e.operation}/${e.manager}`),
    ['Apply/c', 'Update/z', 'Update/a', 'Update/b']
  );
  assert.deepEqual(out[3], input[0]);
});

test('managedFields entry: an entry without a valid operation, apiVersion or fieldsType does not decode', () => {
  const ok = entry('m', 'Update', '2024-01-01T00:00:00Z');
  assert.throws(() => decodeManagedFields([{ ...ok, operation: 'Patch' }]), /operation must be/);
  assert.throws(
    () => decodeManagedFields([{ ...ok, apiVersion: '' }]),
    /apiVersion must not be empty/
  );
  assert.throws(
    () => decodeManagedFields([{ ...ok, fieldsType: undefined }]),
    /missing fieldsType/
  );
  assert.throws(
    () => decodeManagedFields([{ ...ok, fieldsType: 'FieldsV2' }]),
    /invalid fieldsType/
  );
});

test('capManagers: more than 10 Update entries merge the oldest per version into ancient-changes', () => {
  const input = Array.from({ length: 12 }, (_, i) =>
    entry(
      `u${String(i).padStart(2, '0')}`,
      'Update',
      `2024-01-01T00:00:${String(i).padStart(2, '0')}Z`,
      {
        'f:data': { [`f:k${i}`]: {} },
      }
    )
  );
  input.push(entry('applier', 'Apply', '2024-01-01T00:00:00Z', { 'f:data': { 'f:a': {} } }));
  const out = encodeManagedFields(capUpdateManagers(decodeManagedFields(input), 10));
  const updates = out.filter((e) => e.operation === 'Update');
  assert.equal(updates.length, 10);
  const ancient = updates.find((e) => e.manager === 'ancient-changes');
  assert.deepEqual(ancient?.fieldsV1, { 'f:data': { 'f:k0': {}, 'f:k1': {}, 'f:k2': {} } });
  assert.equal(ancient?.time, '2024-01-01T00:00:02Z', 'the time of the newest merged update');
  assert.ok(
    out.some((e) => e.manager === 'applier'),
    'Apply entries are never capped'
  );
  assert.ok(!updates.some((e) => ['u00', 'u01', 'u02'].includes(e.manager ?? '')));
});

test("manager name: the user agent's program name, printable, at most 128 bytes", () => {
  assert.equal(prefixFromUserAgent('kubectl/v1.32.4 (linux/amd64) kubernetes/abc'), 'kubectl');
  assert.equal(prefixFromUserAgent('my\u0007tool/1'), 'mytool');
  assert.equal(prefixFromUserAgent('x'.repeat(200)).length, 128);
});

test('conflicts: managers printed as upstream (updaters with their version, subresources named)', () => {
  assert.equal(printManager(buildManagerIdentifier({ manager: 'a', operation: 'Apply' })), '"a"');
  assert.equal(
    printManager(
      buildManagerIdentifier({
        manager: 'c',
        operation: 'Update',
        apiVersion: 'apps/v1',
        subresource: 'status',
      })
    ),
    '"c" with subresource "status" using apps/v1'
  );
});

const deployment = (spec: object, status?: object): ApiObject =>
  ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'd', namespace: 'n' },
    spec,
    ...(status ? { status } : {}),
  }) as ApiObject;

test('field manager chain: apply owns what it applies, an update takes fields without conflict, a second applier conflicts (409 with causes)', () => {
  const fm = fieldManagerFor({ group: 'apps', version: 'v1', kind: 'Deployment' }, '', true);
  const created = fm.apply(undefined, deployment({ replicas: 1, paused: false }), 'alice', false);
  assert.deepEqual(created.metadata.managedFields?.length, 1);
  created.metadata.uid = 'u1';
  const next = structuredClone(created);
  (next['spec'] as { replicas: number }).replicas = 2;
  const updated = fm.update(created, next, 'scaler');
  const managers = (updated.metadata.managedFields as { manager: string; operation: string }[]).map(
    (e) => `${e.manager}/${e.operation}`
  );
  assert.deepEqual(managers, ['alice/Apply', 'scaler/Update']);
  try {
    fm.apply(updated, deployment({ replicas: 5 }), 'bob', false);
    assert.fail('expected a conflict');
  } catch (err) {
    assert.ok(err instanceof StatusError);
    assert.equal(err.code, 409);
    assert.equal(
      err.status.message,
      'Apply failed with 1 conflict: conflict with "scaler" using apps/v1: .spec.replicas'
    );
    assert.deepEqual(err.status.details?.causes, [
      {
        reason: 'FieldManagerConflict',
        message: 'conflict with "scaler" using apps/v1',
        field: '.spec.replicas',
      },
    ]);
  }
});

test('field manager chain: an object without managedFields is not tracked by updates; its first apply records before-first-apply', () => {
  const fm = new FieldManager(
    { group: 'apps', version: 'v1', kind: 'Deployment' },
    '',
    resetFieldsFor('', true)
  );
  const live = { ...deployment({ replicas: 1, minReadySeconds: 3 }) };
  live.metadata.uid = 'u';
  const next = structuredClone(live);
  (next['spec'] as { replicas: number }).replicas = 2;
  assert.equal(fm.update(live, next, 'x').metadata.managedFields, undefined);
  const applied = fm.apply(live, deployment({ replicas: 1 }), 'alice', false);
  const names = (applied.metadata.managedFields as { manager: string }[]).map((e) => e.manager);
  assert.deepEqual(names, ['alice', 'before-first-apply']);
});

test('resetFields: the main resource never owns status; /status owns only status', () => {
  const main = new FieldManager(
    { group: 'apps', version: 'v1', kind: 'Deployment' },
    '',
    resetFieldsFor('', true)
  );
  const a = main.apply(undefined, deployment({ replicas: 1 }, { replicas: 1 }), 'alice', false);
  assert.deepEqual((a.metadata.managedFields as { fieldsV1: object }[])[0]?.fieldsV1, {
    'f:spec': { 'f:replicas': {} },
  });
  const status = new FieldManager(
    { group: 'apps', version: 'v1', kind: 'Deployment' },
    'status',
    resetFieldsFor('status', true)
  );
  const s = status.apply(undefined, deployment({ replicas: 1 }, { replicas: 1 }), 'ctl', false);
  const e = (s.metadata.managedFields as { fieldsV1: object; subresource: string }[])[0];
  assert.deepEqual(e?.fieldsV1, { 'f:status': { 'f:replicas': {} } });
  assert.equal(e?.subresource, 'status');
});

test('apply types objects as upstream: a quantity may be a number (cpu: 1), an unknown field is refused', () => {
  const fm = fieldManagerFor({ group: 'apps', version: 'v1', kind: 'Deployment' }, '', true);
  const pod = (resources: object, extra: object = {}) =>
    deployment({
      template: { spec: { containers: [{ name: 'a', image: 'i', resources, ...extra }] } },
    });
  const ok = fm.apply(undefined, pod({ limits: { cpu: 1, memory: '1Gi' } }), 'm', false);
  assert.ok(ok.metadata.managedFields);
  assert.throws(
    () => fm.apply(undefined, pod({}, { bogus: 1 }), 'm', false),
    (err: unknown) =>
      err instanceof StatusError &&
      err.code === 400 &&
      /bogus: field not declared/.test(err.message)
  );
});

test('apply to a stored object that cannot be typed (a keyed list item without its key) is 422 and changes nothing', () => {
  const fm = fieldManagerFor({ group: '', version: 'v1', kind: 'ServiceAccount' }, '', false);
  const live: ApiObject = {
    apiVersion: 'v1',
    kind: 'ServiceAccount',
    metadata: { name: 'sa', namespace: 'n', uid: 'u' },
    secrets: [{ namespace: 'n' }],
  };
  const applied: ApiObject = {
    apiVersion: 'v1',
    kind: 'ServiceAccount',
    metadata: { name: 'sa' },
    secrets: [{ name: 's' }],
  };
  assert.throws(
    () => fm.apply(live, applied, 'm', true),
    (err: unknown) => err instanceof StatusError && err.code === 422
  );
});
