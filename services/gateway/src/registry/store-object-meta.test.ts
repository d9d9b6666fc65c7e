// Object metadata validation through the gateway's Store, against a real suite: two bugs once
// found (a create carrying resourceVersion was stored; so was a finalizer "Bad Finalizer"),
// the finalizer warning as a Warning: 299 header, and the immutable fields of an update.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sharedSuite } from '@orch/testing';
import type { Suite } from '@orch/testing';

let suite: Suite;
const ns = 'object-meta';
const base = `/api/v1/namespaces/${ns}/configmaps`;

interface Cause {
  reason: string;
  field: string;
  message: string;
}
const causesOf = (b: unknown): Cause[] =>
  (b as { details?: { causes?: Cause[] } }).details?.causes ?? [];
const warningsOf = (h: Record<string, string | string[] | undefined>): string[] => {
  const w = h['warning'];
  return w === undefined ? [] : Array.isArray(w) ? w : [w];
};
const cm = (name: string, meta: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, ...meta },
  data: { a: '1' },
});

before(async () => {
  suite = await sharedSuite();
  const nsBody = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } };
  assert.equal((await suite.request(0, 'POST', '/api/v1/namespaces', nsBody)).status, 201);
});

after(async () => {
  await suite.stop();
});

for (const rv of ['abc', '-1', '12345678901234567890']) {
  test(`create with resourceVersion ${JSON.stringify(rv)}: 422, nothing stored`, async () => {
    const name = `rv-${rv.length}`;
    const r = await suite.request(0, 'POST', base, cm(name, { resourceVersion: rv }));
    assert.equal(r.status, 422, r.text);
    assert.deepEqual(causesOf(r.body), [
      {
        reason: 'FieldValueInvalid',
        field: 'metadata.resourceVersion',
        message:
          `Invalid value: ${JSON.stringify(rv)}: ` +
          'resourceVersion should not be set on objects to be created',
      },
    ]);
    assert.equal((await suite.request(0, 'GET', `${base}/${name}`)).status, 404);
  });
}

test('create with finalizers ["Bad Finalizer"] is 422 and stores nothing', async () => {
  const r = await suite.request(0, 'POST', base, cm('bad-fin', { finalizers: ['Bad Finalizer'] }));
  assert.equal(r.status, 422, r.text);
  const causes = causesOf(r.body);
  assert.equal(causes.length, 1);
  assert.equal(causes[0]?.field, 'metadata.finalizers');
  const message = causes[0]?.message ?? '';
  assert.match(message, /^Invalid value: "Bad Finalizer": name part must consist of/);
  assert.equal((await suite.request(0, 'GET', `${base}/bad-fin`)).status, 404);
});

test('a finalizer without a domain is stored, with a Warning: 299 header', async () => {
  const r = await suite.request(0, 'POST', base, cm('plain-fin', { finalizers: ['cleanup'] }));
  assert.equal(r.status, 201, r.text);
  const text =
    'metadata.finalizers: "cleanup": prefer a domain-qualified finalizer name including a path ' +
    '(/) to avoid accidental conflicts with other finalizer writers';
  assert.deepEqual(warningsOf(r.headers), [`299 - ${JSON.stringify(text)}`]);
  const got = await suite.request(0, 'GET', `${base}/plain-fin`);
  const stored = got.body as { metadata: { finalizers: string[] } };
  assert.deepEqual(stored.metadata.finalizers, ['cleanup']);
  // The warning comes again on a patch of the object; removing the finalizer lets it go.
  const patch = { metadata: { labels: { a: 'b' } } };
  const p = await suite.request(0, 'PATCH', `${base}/plain-fin`, patch, {
    'Content-Type': 'application/merge-patch+json',
  });
  assert.equal(p.status, 200, p.text);
  assert.deepEqual(warningsOf(p.headers), [`299 - ${JSON.stringify(text)}`]);
  const clear = { metadata: { finalizers: null } };
  const c = await suite.request(0, 'PATCH', `${base}/plain-fin`, clear, {
    'Content-Type': 'application/merge-patch+json',
  });
  assert.equal(c.status, 200, c.text);
  assert.deepEqual(warningsOf(c.headers), []);
});

test('uid and creationTimestamp sent on create are replaced by the server', async () => {
  const meta = { uid: 'client-uid', creationTimestamp: '2000-01-01T00:00:00Z' };
  const r = await suite.request(0, 'POST', base, cm('sys-fields', meta));
  assert.equal(r.status, 201, r.text);
  const m = (r.body as { metadata: { uid: string; creationTimestamp: string } }).metadata;
  assert.notEqual(m.uid, 'client-uid');
  assert.notEqual(m.creationTimestamp, '2000-01-01T00:00:00Z');
});

test('an update changing uid or deletion fields is 422 "field is immutable"', async () => {
  const created = await suite.request(0, 'POST', base, cm('immutable'));
  assert.equal(created.status, 201, created.text);
  const obj = created.body as { metadata: Record<string, unknown> };
  for (const [field, value] of [
    ['uid', 'another-uid'],
    ['deletionTimestamp', '2030-01-01T00:00:00Z'],
    ['deletionGracePeriodSeconds', 30],
  ] as const) {
    const body = { ...obj, metadata: { ...obj.metadata, [field]: value } };
    const r = await suite.request(0, 'PUT', `${base}/immutable`, body);
    assert.equal(r.status, 422, `${field}: ${r.text}`);
    assert.deepEqual(
      causesOf(r.body).map((c) => [c.field, c.message]),
      [[`metadata.${field}`, `Invalid value: ${JSON.stringify(value)}: field is immutable`]]
    );
  }
  const after = await suite.request(0, 'GET', `${base}/immutable`);
  assert.deepEqual(after.body, created.body, 'nothing stored changed');
});

test('two controller ownerReferences and a missing uid are 422 with upstream paths', async () => {
  const ref = { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'a', uid: 'u1', controller: true };
  const refs = [ref, { ...ref, name: 'b', uid: '' }];
  const r = await suite.request(0, 'POST', base, cm('owners', { ownerReferences: refs }));
  assert.equal(r.status, 422, r.text);
  assert.deepEqual(
    causesOf(r.body).map((c) => c.field),
    ['metadata.ownerReferences[1].uid', 'metadata.ownerReferences']
  );
});
