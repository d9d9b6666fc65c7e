// Deletion through the gateway's Store against a real suite (no controllers, so nothing removes
// the garbage collector's finalizers): DeleteOptions propagationPolicy and the deprecated
// orphanDependents setting the `orphan` / `foregroundDeletion` finalizers as upstream's
// deletionFinalizersForGarbageCollection, objects with finalizers marked and kept until the
// last is removed, preconditions, dry run, DeleteOptions validation and deletecollection.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sharedSuite } from '@orch/testing';
import type { Suite } from '@orch/testing';

let suite: Suite;
const ns = 'store-delete';
const base = `/api/v1/namespaces/${ns}/configmaps`;

interface Meta {
  name: string;
  uid: string;
  resourceVersion: string;
  generation?: number;
  finalizers?: string[];
  deletionTimestamp?: string;
  deletionGracePeriodSeconds?: number;
}
const metaOf = (b: unknown): Meta => (b as { metadata: Meta }).metadata;

async function make(name: string, finalizers?: string[]): Promise<Meta> {
  const body = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, ...(finalizers ? { finalizers } : {}) },
    data: { a: '1' },
  };
  const r = await suite.request(0, 'POST', base, body);
  assert.equal(r.status, 201, r.text);
  return metaOf(r.body);
}

/** A DELETE with DeleteOptions: Content-Length given, as node sends no chunked body for DELETE. */
const delWith = (path: string, options?: unknown) =>
  suite.request(
    0,
    'DELETE',
    path,
    options,
    options === undefined
      ? {}
      : { 'Content-Length': String(Buffer.byteLength(JSON.stringify(options))) }
  );
const del = (name: string, options?: unknown, query = '') =>
  delWith(`${base}/${name}${query}`, options);
const get = (name: string) => suite.request(0, 'GET', `${base}/${name}`);

before(async () => {
  suite = await sharedSuite();
  const nsBody = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } };
  assert.equal((await suite.request(0, 'POST', '/api/v1/namespaces', nsBody)).status, 201);
});

after(async () => {
  await suite?.stop();
});

// Each row: the options of the delete, the finalizers the object had, and what is left.
const rows: {
  name: string;
  had?: string[];
  options?: Record<string, unknown>;
  query?: string;
  /** undefined: removed now. */
  left?: string[];
  code: number;
}[] = [
  { name: 'no options, default policy Background: removed now', code: 200 },
  { name: 'Background: removed now', options: { propagationPolicy: 'Background' }, code: 200 },
  {
    name: 'Orphan: kept with orphan',
    options: { propagationPolicy: 'Orphan' },
    left: ['orphan'],
    code: 200,
  },
  {
    name: 'Foreground: kept with foregroundDeletion',
    options: { propagationPolicy: 'Foreground' },
    left: ['foregroundDeletion'],
    code: 200,
  },
  {
    name: 'orphanDependents true: kept with orphan',
    options: { orphanDependents: true },
    left: ['orphan'],
    code: 200,
  },
  { name: 'orphanDependents false: removed now', options: { orphanDependents: false }, code: 200 },
  {
    name: 'orphanDependents false, a finalizer left: 202 as upstream',
    had: ['example.com/hold'],
    options: { orphanDependents: false },
    left: ['example.com/hold'],
    code: 202,
  },
  {
    name: 'query propagationPolicy=Orphan (no body)',
    query: '?propagationPolicy=Orphan',
    left: ['orphan'],
    code: 200,
  },
  {
    name: 'query orphanDependents=t (strconv.ParseBool)',
    query: '?orphanDependents=t',
    left: ['orphan'],
    code: 200,
  },
  {
    name: 'the object orphan finalizer is its policy when the delete names none',
    had: ['orphan'],
    left: ['orphan'],
    code: 200,
  },
  {
    name: 'Background removes an orphan finalizer: removed now',
    had: ['orphan'],
    options: { propagationPolicy: 'Background' },
    code: 200,
  },
  {
    name: 'Foreground replaces orphan',
    had: ['example.com/hold', 'orphan'],
    options: { propagationPolicy: 'Foreground' },
    left: ['example.com/hold', 'foregroundDeletion'],
    code: 200,
  },
  {
    name: 'a user finalizer: kept, marked',
    had: ['example.com/hold'],
    left: ['example.com/hold'],
    code: 200,
  },
];

for (const [i, row] of rows.entries()) {
  test(`delete: ${row.name}`, async () => {
    const name = `row-${i}`;
    const created = await make(name, row.had);
    const r = await del(name, row.options, row.query);
    assert.equal(r.status, row.code, r.text);
    const after = await get(name);
    if (!row.left) {
      assert.equal((r.body as { kind: string }).kind, 'Status', r.text);
      assert.equal(after.status, 404, after.text);
      return;
    }
    assert.equal(after.status, 200, after.text);
    const m = metaOf(after.body);
    assert.deepEqual(m.finalizers, row.left);
    assert.ok(m.deletionTimestamp, 'deletionTimestamp set');
    assert.equal(m.deletionGracePeriodSeconds, 0);
    assert.equal(m.generation, (created.generation ?? 1) + 1, 'generation raised on the mark');
    assert.deepEqual(metaOf(r.body).finalizers, row.left, 'the answer is the marked object');
  });
}

test('a marked object stays until its last finalizer is removed; a second delete may change the GC finalizers', async () => {
  await make('held', ['example.com/hold']);
  const first = await del('held');
  assert.equal(first.status, 200, first.text);
  const ts = metaOf(first.body).deletionTimestamp;
  const second = await del('held', { propagationPolicy: 'Orphan' });
  assert.equal(second.status, 200, second.text);
  assert.deepEqual(metaOf(second.body).finalizers, ['example.com/hold', 'orphan']);
  assert.equal(metaOf(second.body).deletionTimestamp, ts, 'the timestamp is kept');
  // Removing one finalizer keeps it; removing the last removes it.
  const cur = (await get('held')).body as Record<string, unknown> & { metadata: Meta };
  cur.metadata.finalizers = ['orphan'];
  assert.equal((await suite.request(0, 'PUT', `${base}/held`, cur)).status, 200);
  assert.equal((await get('held')).status, 200);
  const again = (await get('held')).body as Record<string, unknown> & { metadata: Meta };
  again.metadata.finalizers = [];
  const last = await suite.request(0, 'PUT', `${base}/held`, again);
  assert.equal(last.status, 200, last.text);
  assert.equal((await get('held')).status, 404);
});

test('no new finalizers on an object being deleted', async () => {
  await make('no-new', ['example.com/hold']);
  await del('no-new');
  const cur = (await get('no-new')).body as Record<string, unknown> & { metadata: Meta };
  cur.metadata.finalizers = ['example.com/hold', 'example.com/more'];
  const r = await suite.request(0, 'PUT', `${base}/no-new`, cur);
  assert.equal(r.status, 422, r.text);
  assert.match(r.text, /no new finalizers can be added if the object is being deleted/);
});

test('preconditions: uid and resourceVersion mismatches are 409 and change nothing', async () => {
  const m = await make('pre');
  const uid = await del('pre', { preconditions: { uid: 'not-the-uid' } });
  assert.equal(uid.status, 409, uid.text);
  assert.match(uid.text, /Precondition failed: UID in precondition: not-the-uid/);
  const rv = await del('pre', { preconditions: { resourceVersion: '1' } });
  assert.equal(rv.status, 409, rv.text);
  assert.match(rv.text, /Precondition failed: ResourceVersion in precondition: 1/);
  assert.equal(metaOf((await get('pre')).body).resourceVersion, m.resourceVersion);
  const ok = await del('pre', {
    preconditions: { uid: m.uid, resourceVersion: m.resourceVersion },
    propagationPolicy: 'Background',
  });
  assert.equal(ok.status, 200, ok.text);
  assert.equal((await get('pre')).status, 404);
});

test('dry run: the marked object is answered, nothing is stored', async () => {
  const m = await make('dry');
  const r = await del('dry', { dryRun: ['All'], propagationPolicy: 'Foreground' });
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(metaOf(r.body).finalizers, ['foregroundDeletion']);
  const now = metaOf((await get('dry')).body);
  assert.equal(now.resourceVersion, m.resourceVersion);
  assert.equal(now.finalizers, undefined);
});

const invalid: { name: string; options?: unknown; query?: string; cause: RegExp }[] = [
  {
    name: 'propagationPolicy and orphanDependents both set',
    options: { propagationPolicy: 'Orphan', orphanDependents: true },
    cause: /orphanDependents and deletionPropagation cannot be both set/,
  },
  {
    name: 'an unknown propagationPolicy',
    options: { propagationPolicy: 'Later' },
    cause:
      /Unsupported value: "Later": supported values: "Foreground", "Background", "Orphan", "nil"/,
  },
  {
    name: 'an unknown propagationPolicy in the query',
    query: '?propagationPolicy=later',
    cause: /Unsupported value: "later"/,
  },
];
for (const row of invalid) {
  test(`DeleteOptions invalid: ${row.name}: 422 naming propagationPolicy, nothing deleted`, async () => {
    const name = `inv-${invalid.indexOf(row)}`;
    await make(name);
    const r = await del(name, row.options, row.query);
    assert.equal(r.status, 422, r.text);
    const causes = (r.body as { details: { causes: { field: string; message: string }[] } }).details
      .causes;
    assert.equal(causes[0]?.field, 'propagationPolicy');
    assert.match(causes[0]?.message ?? '', row.cause);
    assert.equal((await get(name)).status, 200);
  });
}

test('query orphanDependents with a value strconv.ParseBool refuses: 400', async () => {
  await make('bad-bool');
  const r = await del('bad-bool', undefined, '?orphanDependents=yes');
  assert.equal(r.status, 400, r.text);
  assert.equal((await get('bad-bool')).status, 200);
});

test('deletecollection with Orphan marks every selected object', async () => {
  for (const n of ['coll-a', 'coll-b']) {
    const body = { metadata: { name: n, labels: { coll: 'yes' } }, data: {} };
    assert.equal((await suite.request(0, 'POST', base, body)).status, 201);
  }
  const r = await delWith(`${base}?labelSelector=coll%3Dyes`, { propagationPolicy: 'Orphan' });
  assert.equal(r.status, 200, r.text);
  for (const n of ['coll-a', 'coll-b']) {
    const m = metaOf((await get(n)).body);
    assert.deepEqual(m.finalizers, ['orphan']);
    assert.ok(m.deletionTimestamp);
  }
});
