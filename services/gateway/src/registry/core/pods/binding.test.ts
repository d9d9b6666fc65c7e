// pods/binding and the bindings collection over HTTPS against a real suite (upstream
// BindingREST): a Binding sets spec.nodeName when unset, copies its annotations, marks the pod
// scheduled; a bound pod is refused with 409; bad Bindings are 422/400; dry run binds nothing.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sharedSuite } from '@orch/testing';
import type { Suite } from '@orch/testing';

let suite: Suite;
const ns = 'binding';
const pods = `/api/v1/namespaces/${ns}/pods`;

type Pod = {
  metadata: { uid: string; generation?: number; annotations?: Record<string, string> };
  spec: { nodeName?: string };
  status?: { conditions?: { type: string; status: string }[] };
};

const pod = (name: string) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name },
  spec: { containers: [{ name: 'c', image: 'nginx' }] },
});
const binding = (name: string, node: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Binding',
  metadata: { name, ...extra },
  target: { apiVersion: 'v1', kind: 'Node', name: node },
});
const getPod = async (name: string): Promise<Pod> =>
  (await suite.request(0, 'GET', `${pods}/${name}`)).body as Pod;

before(async () => {
  suite = await sharedSuite();
  const r = await suite.request(0, 'POST', '/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: ns },
  });
  assert.equal(r.status, 201);
  for (const name of ['p1', 'p2', 'p3', 'p4'])
    assert.equal((await suite.request(0, 'POST', pods, pod(name))).status, 201);
});

after(async () => {
  await suite.stop();
});

test('pods/binding sets spec.nodeName, copies annotations, marks the pod scheduled: 201 Success', async () => {
  const r = await suite.request(
    0,
    'POST',
    `${pods}/p1/binding`,
    binding('p1', 'node-a', { annotations: { 'example.com/by': 'my-scheduler' } })
  );
  assert.equal(r.status, 201, r.text);
  assert.deepEqual(r.body, {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Success',
    code: 201,
  });
  const p = await getPod('p1');
  assert.equal(p.spec.nodeName, 'node-a');
  assert.equal(p.metadata.annotations?.['example.com/by'], 'my-scheduler');
  const scheduled = p.status?.conditions?.find((c) => c.type === 'PodScheduled');
  assert.equal(scheduled?.status, 'True');
  assert.equal(p.metadata.generation, 1, 'a binding does not raise generation');
});

test('a bound pod is refused: 409 naming the node (upstream message)', async () => {
  const r = await suite.request(0, 'POST', `${pods}/p1/binding`, binding('p1', 'node-b'));
  assert.equal(r.status, 409, r.text);
  assert.match(
    (r.body as { message: string }).message,
    /Operation cannot be fulfilled on pods\/binding "p1": pod p1 is already assigned to node "node-a"/
  );
  assert.equal((await getPod('p1')).spec.nodeName, 'node-a');
});

test('the bindings collection binds the pod its Binding names', async () => {
  const r = await suite.request(
    0,
    'POST',
    `/api/v1/namespaces/${ns}/bindings`,
    binding('p2', 'node-c')
  );
  assert.equal(r.status, 201, r.text);
  assert.equal((await getPod('p2')).spec.nodeName, 'node-c');
});

test('a uid precondition that does not match is 409; the matching one binds', async () => {
  const wrong = await suite.request(
    0,
    'POST',
    `${pods}/p3/binding`,
    binding('p3', 'node-d', { uid: '00000000-0000-0000-0000-000000000000' })
  );
  assert.equal(wrong.status, 409, wrong.text);
  assert.match(wrong.text, /Precondition failed: UID in precondition/);
  const uid = (await getPod('p3')).metadata.uid;
  const ok = await suite.request(0, 'POST', `${pods}/p3/binding`, binding('p3', 'node-d', { uid }));
  assert.equal(ok.status, 201, ok.text);
});

test('bad Bindings: target kind, missing target name (422), a name unlike the URL (400), no pod (404)', async () => {
  const kind = await suite.request(0, 'POST', `${pods}/p4/binding`, {
    ...binding('p4', 'n'),
    target: { kind: 'Pod', name: 'n' },
  });
  assert.equal(kind.status, 422, kind.text);
  assert.match(kind.text, /target\.kind: Unsupported value: \\"Pod\\"/);
  const noName = await suite.request(0, 'POST', `${pods}/p4/binding`, {
    ...binding('p4', 'n'),
    target: { kind: 'Node' },
  });
  assert.equal(noName.status, 422, noName.text);
  assert.match(noName.text, /target\.name: Required value/);
  const mismatch = await suite.request(0, 'POST', `${pods}/p4/binding`, binding('other', 'n'));
  assert.equal(mismatch.status, 400, mismatch.text);
  assert.match(mismatch.text, /name in URL does not match name in Binding object/);
  const missing = await suite.request(0, 'POST', `${pods}/nope/binding`, binding('nope', 'n'));
  assert.equal(missing.status, 404, missing.text);
  assert.equal((await getPod('p4')).spec.nodeName, undefined, 'nothing bound');
});

test('a dry-run binding answers Success and binds nothing', async () => {
  const r = await suite.request(
    0,
    'POST',
    `${pods}/p4/binding?dryRun=All`,
    binding('p4', 'node-e')
  );
  assert.equal(r.status, 201, r.text);
  assert.equal((await getPod('p4')).spec.nodeName, undefined);
});

test('discovery lists bindings (create) and pods/binding (create)', async () => {
  const list = (await suite.request(0, 'GET', '/api/v1')).body as {
    resources: { name: string; verbs: string[]; kind: string }[];
  };
  const bindings = list.resources.find((r) => r.name === 'bindings');
  assert.deepEqual(bindings?.verbs, ['create']);
  assert.equal(bindings?.kind, 'Binding');
  assert.deepEqual(list.resources.find((r) => r.name === 'pods/binding')?.verbs, ['create']);
});
