// The limits that keep the gateway up under hostile input, each refused with upstream's code:
// the request body size (--max-request-body-bytes, 413), the decoding depth (400), YAML alias
// expansion (400), JSON patch operations (413) and the bytes JSON patch copies (422).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sharedSuite, startGateway } from '@orch/testing';
import type { Suite } from '@orch/testing';

let suite: Suite;
const ns = 'limits';
const cms = `/api/v1/namespaces/${ns}/configmaps`;
const maxBody = 1024 * 1024;

interface StatusBody {
  kind: string;
  code: number;
  reason: string;
  message: string;
}
const status = (b: unknown): StatusBody => b as StatusBody;
const tooDeep = 'the request body is nested too deeply: exceeded max depth of 256';

before(async () => {
  // A gateway of its own (the flag is the gateway's) on the shared suite's backends.
  suite = await startGateway(await sharedSuite(), {
    args: [`--max-request-body-bytes=${maxBody}`],
  });
  const body = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } };
  assert.equal((await suite.request(0, 'POST', '/api/v1/namespaces', body)).status, 201);
  const cm = { metadata: { name: 'base' }, data: { a: 'b' } };
  assert.equal((await suite.request(0, 'POST', cms, cm)).status, 201);
});

after(async () => {
  await suite.stop();
});

/** A ConfigMap of exactly `size` bytes of JSON. */
function configMapOfSize(name: string, size: number): Buffer {
  const head = `{"metadata":{"name":"${name}"},"data":{"a":"`;
  const tail = '"}}';
  return Buffer.from(head + 'x'.repeat(size - head.length - tail.length) + tail);
}

test('limits: a body at --max-request-body-bytes is read, one byte more is 413', async () => {
  const at = await suite.request(0, 'POST', cms, configMapOfSize('at-limit', maxBody));
  assert.equal(at.status, 201, at.text.slice(0, 300));
  const past = await suite.request(0, 'POST', cms, configMapOfSize('past-limit', maxBody + 1));
  assert.equal(past.status, 413, past.text.slice(0, 300));
  assert.equal(status(past.body).reason, 'RequestEntityTooLarge');
  assert.equal((await suite.request(0, 'GET', `${cms}/past-limit`)).status, 404);
});

/** A ConfigMap whose managedFields[0].fieldsV1 (kept as sent) nests `depth` objects. */
function deepConfigMap(name: string, depth: number): Buffer {
  // Four levels to fieldsV1 (the body, metadata, the list, its entry), then depth - 4 objects.
  const deep = '{"f:a":'.repeat(depth - 5) + '{}' + '}'.repeat(depth - 5);
  const entry = '"manager":"m","operation":"Update","apiVersion":"v1","fieldsType":"FieldsV1"';
  const mf = `[{${entry},"fieldsV1":${deep}}]`;
  return Buffer.from(`{"metadata":{"name":"${name}","managedFields":${mf}}}`);
}

test('limits: a body nested 256 deep is stored and read back in YAML; 257 is 400', async () => {
  const ok = await suite.request(0, 'POST', cms, deepConfigMap('deep-ok', 256));
  assert.equal(ok.status, 201, ok.text.slice(0, 300));
  const asYaml = { Accept: 'application/yaml' };
  const yaml = await suite.request(0, 'GET', `${cms}/deep-ok`, undefined, asYaml);
  assert.equal(yaml.status, 200, yaml.text.slice(0, 300));
  const deep = await suite.request(0, 'POST', cms, deepConfigMap('deep-bad', 257));
  assert.equal(deep.status, 400, deep.text.slice(0, 300));
  assert.equal(status(deep.body).message, tooDeep);
  assert.equal((await suite.request(0, 'GET', `${cms}/deep-bad`)).status, 404);
});

test('limits: a JSON patch building an object past the depth is 400, nothing changes', async () => {
  // deep-ok (above) is 256 deep; adding two levels at its innermost object makes 258.
  const path = `/metadata/managedFields/0/fieldsV1${'/f:a'.repeat(251)}/x`;
  const before = await suite.request(0, 'GET', `${cms}/deep-ok`);
  assert.equal(before.status, 200);
  const ops = [{ op: 'add', path, value: { y: {} } }];
  const r = await suite.request(0, 'PATCH', `${cms}/deep-ok`, ops, {
    'Content-Type': 'application/json-patch+json',
  });
  assert.equal(r.status, 400, r.text.slice(0, 300));
  assert.equal(status(r.body).message, tooDeep);
  assert.deepEqual((await suite.request(0, 'GET', `${cms}/deep-ok`)).body, before.body);
});

test('limits: an apply of JSON nested past the depth is 400 from the JSON scan, not the YAML parser; YAML-only text still goes to YAML', async () => {
  // Upstream decodes an apply patch as YAML (sigs.k8s.io/yaml); JSON is YAML, and too deep as
  // JSON text is as deep as YAML flow collections. Before, the YAML parser recursed 100,000
  // levels until the stack overflowed (400 "not valid YAML: Maximum call stack size exceeded").
  const apply = { 'Content-Type': 'application/apply-patch+yaml' };
  const path = `${cms}/applied?fieldManager=limits`;
  const cm = '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"applied"},"data":{"a":"b"}';
  for (const deep of ['['.repeat(100_000) + ']'.repeat(100_000), deepJson(257)]) {
    const r = await suite.request(0, 'PATCH', path, `${cm},"deep":${deep}}`, apply);
    assert.equal(r.status, 400, r.text.slice(0, 300));
    assert.equal(status(r.body).message, tooDeep);
  }
  // Brackets inside a single-quoted YAML scalar are no nesting: YAML reads it, a string.
  const meta = '"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"applied"}';
  const quoted = `{${meta},"data":{"a":'${'['.repeat(300)}'}}`;
  const ok = await suite.request(0, 'PATCH', path, quoted, apply);
  assert.equal(ok.status, 201, ok.text.slice(0, 300));
  assert.deepEqual((ok.body as { data?: unknown }).data, { a: '['.repeat(300) });
  assert.equal((await suite.request(0, 'GET', '/readyz')).status, 200);
});

test('limits: a YAML body nested past the depth is 400 before the YAML composer recurses, the gateway stays up', async () => {
  const yaml = { 'Content-Type': 'application/yaml' };
  const head = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: deep-yaml}\ndata:\n  a: ';
  for (const deep of ['['.repeat(100_000) + ']'.repeat(100_000), '{a: '.repeat(50_000)]) {
    const r = await suite.request(0, 'POST', cms, `${head}${deep}\n`, yaml);
    assert.equal(r.status, 400, r.text.slice(0, 300));
    assert.equal(status(r.body).message, tooDeep);
  }
  assert.equal((await suite.request(0, 'GET', `${cms}/deep-yaml`)).status, 404);
  assert.equal((await suite.request(0, 'GET', '/readyz')).status, 200);
});

/** JSON objects nested `depth` deep (the outermost included). */
function deepJson(depth: number): string {
  return '{"a":'.repeat(depth - 1) + '{}' + '}'.repeat(depth - 1);
}

test('limits: a YAML alias bomb is 400, the gateway stays up', async () => {
  const levels = ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  for (let i = 1; i <= 9; i++) {
    levels.push(
      `a${i}: &a${i} [${Array(10)
        .fill(`*a${i - 1}`)
        .join(',')}]`
    );
  }
  const body = `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: bomb}\n${levels.join('\n')}\n`;
  const r = await suite.request(0, 'POST', cms, body, { 'Content-Type': 'application/yaml' });
  assert.equal(r.status, 400, r.text.slice(0, 300));
  assert.match(status(r.body).message, /^the request body is not valid YAML: .*alias/i);
  assert.equal((await suite.request(0, 'GET', '/readyz')).status, 200);
});

const jsonPatch = { 'Content-Type': 'application/json-patch+json' };

test('limits: 10,000 JSON patch operations are applied, 10,001 are 413', async () => {
  const op = { op: 'test', path: '/kind', value: 'ConfigMap' };
  const at = await suite.request(0, 'PATCH', `${cms}/base`, Array(10_000).fill(op), jsonPatch);
  assert.equal(at.status, 200, at.text.slice(0, 300));
  const past = await suite.request(0, 'PATCH', `${cms}/base`, Array(10_001).fill(op), jsonPatch);
  assert.equal(past.status, 413, past.text.slice(0, 300));
  assert.equal(
    status(past.body).message,
    'Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001'
  );
});

test('limits: JSON patch copies past the copy size limit are 422, gateway up', async () => {
  const ops = [
    { op: 'add', path: '/metadata/annotations', value: { a: 'x'.repeat(1000) } },
    ...Array.from({ length: 40 }, (_, i) => ({
      op: 'copy',
      from: '/metadata/annotations',
      path: `/metadata/annotations/c${i}`,
    })),
  ];
  const r = await suite.request(0, 'PATCH', `${cms}/base`, ops, jsonPatch);
  assert.equal(r.status, 422, r.text.slice(0, 300));
  assert.equal(status(r.body).reason, 'Invalid');
  assert.equal((await suite.request(0, 'GET', '/readyz')).status, 200);
});
