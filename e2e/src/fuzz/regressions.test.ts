// Bugs the fuzzing harness found, one named test each, against a real suite.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeEnvelope } from '@orch/apimachinery/protobuf';
import { sharedSuite } from '@orch/testing';
import type { Suite } from '@orch/testing';

let suite: Suite;
const ns = 'fuzz-regressions';
const cms = `/api/v1/namespaces/${ns}/configmaps`;
const merge = { 'Content-Type': 'application/merge-patch+json' };

const warningsOf = (h: Record<string, string | string[] | undefined>): string[] => {
  const w = h['warning'];
  return w === undefined ? [] : Array.isArray(w) ? w : [w];
};

before(async () => {
  suite = await sharedSuite();
  const body = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } };
  assert.equal((await suite.request(0, 'POST', '/api/v1/namespaces', body)).status, 201);
  const cm = { metadata: { name: 'base', labels: { a: 'b' } } };
  assert.equal((await suite.request(0, 'POST', cms, cm)).status, 201);
});

after(async () => {
  await suite.stop();
});

test('regression: a warning naming a non-Latin-1 field is sent, the gateway stays up', async () => {
  // The Warning header threw in Node's setHeader, and the gateway process went down.
  const body = Buffer.from('{"metadata":{"\u{1F600}x":1}}');
  const r = await suite.request(0, 'PATCH', `${cms}/base`, body, merge);
  assert.equal(r.status, 200, r.text);
  const [w] = warningsOf(r.headers);
  const text = Buffer.from(w ?? '', 'latin1').toString('utf8');
  assert.equal(text, '299 - "unknown field \\"metadata[\u{1F600}x]\\""');
  assert.equal((await suite.request(0, 'GET', '/readyz')).status, 200);
});

test('regression: a JSON patch that does not apply is 422, its cause naming no field', async () => {
  const patch = [{ op: 'bogus', path: '' }];
  const r = await suite.request(0, 'PATCH', `${cms}/base`, patch, {
    'Content-Type': 'application/json-patch+json',
  });
  assert.equal(r.status, 422, r.text);
  type Causes = { causes: Record<string, unknown>[] };
  const s = r.body as { reason: string; message: string; details: Causes };
  assert.equal(s.reason, 'Invalid');
  assert.equal(s.message, 'the server rejected our request due to an error in our request');
  assert.equal(s.details.causes.length, 1);
  assert.equal(s.details.causes[0]?.['reason'], 'UnexpectedServerResponse');
  assert.equal('field' in (s.details.causes[0] ?? {}), false);
});

test('regression: a duplicate label key with dots is one field, metadata.labels[key]', async () => {
  const body = '{"metadata":{"name":"dup","labels":{"example.com/a":"1","example.com/a":"2"}}}';
  const r = await suite.request(0, 'POST', cms, Buffer.from(body));
  assert.equal(r.status, 201, r.text);
  const warning = '299 - "duplicate field \\"metadata.labels[example.com/a]\\""';
  assert.deepEqual(warningsOf(r.headers), [warning]);
});

test('regression: an unknown field with a dot in its name is reported as one field', async () => {
  const body = { metadata: { name: 'dot' }, 'a.b': 1 };
  const r = await suite.request(0, 'POST', `${cms}?fieldValidation=Strict`, body);
  assert.equal(r.status, 400, r.text);
  assert.match((r.body as { message: string }).message, /unknown field "\[a\.b\]"/);
});

test('regression: binaryData not in padded base64 is 400, not stored differently', async () => {
  const body = { metadata: { name: 'b64' }, binaryData: { x: 'iVBORw' } };
  const r = await suite.request(0, 'POST', cms, body);
  assert.equal(r.status, 400, r.text);
  const causes = (r.body as { details: { causes: unknown[] } }).details.causes;
  assert.deepEqual(causes, [
    {
      reason: 'FieldValueInvalid',
      field: 'binaryData[x]',
      message: 'expected base64 string, got string',
    },
  ]);
  assert.equal((await suite.request(0, 'GET', `${cms}/b64`)).status, 404);
});

test('regression: empty maps and lists are not stored, so JSON and binary agree', async () => {
  const body = { metadata: { name: 'empty', labels: {}, finalizers: [] }, data: {} };
  const r = await suite.request(0, 'POST', cms, body);
  assert.equal(r.status, 201, r.text);
  const got = await suite.request(0, 'GET', `${cms}/empty`);
  const meta = (got.body as { metadata: Record<string, unknown> }).metadata;
  assert.equal('labels' in meta || 'finalizers' in meta || 'data' in (got.body as object), false);
  const binary = { Accept: 'application/vnd.orch.protobuf' };
  const pb = await suite.request(0, 'GET', `${cms}/empty`, undefined, binary);
  assert.deepEqual(decodeEnvelope(pb.raw), got.body);
});

test('regression: an int-or-string past int32 is 400, not stored to read back wrapped', async () => {
  // Found by make fuzz (seed 995999084): targetPort -9223372036854778000 was stored, and its
  // binary form read back as another number.
  const svc = (targetPort: number) => ({
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: `wide-${targetPort > 0 ? 'pos' : 'neg'}` },
    spec: { ports: [{ port: 80, targetPort }] },
  });
  for (const targetPort of [-9223372036854778000, 2147483648]) {
    const r = await suite.request(0, 'POST', `/api/v1/namespaces/${ns}/services`, svc(targetPort));
    assert.equal(r.status, 400, r.text);
    const causes = (r.body as { details: { causes: unknown[] } }).details.causes;
    assert.deepEqual(causes, [
      {
        reason: 'FieldValueInvalid',
        field: 'spec.ports[0].targetPort',
        message: 'expected int32 or string, got number',
      },
    ]);
    const name = svc(targetPort).metadata.name;
    const got = await suite.request(0, 'GET', `/api/v1/namespaces/${ns}/services/${name}`);
    assert.equal(got.status, 404);
  }
  // int32's largest decodes; the Service's validation then refuses it as a port (upstream).
  const max = await suite.request(0, 'POST', `/api/v1/namespaces/${ns}/services`, svc(2147483647));
  assert.equal(max.status, 422, max.text);
  assert.match(
    max.text,
    /spec\.ports\[0\]\.targetPort: Invalid value: 2147483647: must be between 1 and 65535/
  );
});

test('regression: a quantity sent as a number is stored as the string binary carries', async () => {
  // Found by make fuzz (seed 1002679830): status.capacity.cpu: 0 was stored as a number, and its
  // binary form (a Quantity is a string there) read back as "0".
  const pods = `/api/v1/namespaces/${ns}/pods`;
  const limits = { cpu: 2, memory: 1024 };
  const container = { name: 'c', image: 'nginx', resources: { limits } };
  const body = { metadata: { name: 'numbers' }, spec: { containers: [container] } };
  const r = await suite.request(0, 'POST', pods, body);
  assert.equal(r.status, 201, r.text);
  const got = await suite.request(0, 'GET', `${pods}/numbers`);
  type Pod = { spec: { containers: { resources: { limits: Record<string, unknown> } }[] } };
  assert.deepEqual((got.body as Pod).spec.containers[0]!.resources.limits, {
    cpu: '2',
    memory: '1024',
  });
  const binary = { Accept: 'application/vnd.orch.protobuf' };
  const pb = await suite.request(0, 'GET', `${pods}/numbers`, undefined, binary);
  assert.deepEqual(decodeEnvelope(pb.raw), got.body);
});

test('regression: an apply patch without metadata applies to the object of the URL, not 500', async () => {
  // Found by the bounded fuzz of make test (seed 15, once more kinds changed its cases):
  // an apply of a ClusterRole with metadata dropped answered 500 (managedFields set on undefined).
  const path = '/apis/rbac.authorization.orch.io/v1/clusterroles/apply-without-metadata';
  const apply = { 'Content-Type': 'application/apply-patch+yaml' };
  const role = (verb: string): Record<string, unknown> => ({
    apiVersion: 'rbac.authorization.orch.io/v1',
    kind: 'ClusterRole',
    rules: [{ verbs: [verb], nonResourceURLs: ['/metrics'] }],
  });
  const created = await suite.request(
    0,
    'PATCH',
    `${path}?fieldManager=fuzz`,
    { ...role('get'), metadata: { name: 'apply-without-metadata' } },
    apply
  );
  assert.equal(created.status, 201, created.text);
  const r = await suite.request(0, 'PATCH', `${path}?fieldManager=fuzz`, role('list'), apply);
  assert.equal(r.status, 200, r.text);
  type Role = { metadata: { name: string }; rules: { verbs: string[] }[] };
  assert.equal((r.body as Role).metadata.name, 'apply-without-metadata');
  assert.deepEqual((r.body as Role).rules[0]!.verbs, ['list']);
  const bad = await suite.request(
    0,
    'PATCH',
    `${path}?fieldManager=fuzz`,
    { ...role('get'), metadata: 'x' },
    apply
  );
  assert.equal(bad.status, 400, bad.text);
});
