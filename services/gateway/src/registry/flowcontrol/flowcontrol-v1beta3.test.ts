// flowcontrol.apiserver.orch.io/v1beta3 beside v1, as upstream 1.29-1.31 served it: off by
// default (a beta introduced in 1.26, the spec's life cycle), and with --runtime-config turning
// it on, discovered beside v1, deprecated (Warning 299), one collection with v1 (stored as v1)
// with upstream's v1beta3 rules for nominalConcurrencyShares: a zero is defaulted to 30 unless
// the annotation that keeps it is there, and a v1 zero reads back in v1beta3 with it. A gateway
// of its own on the shared suite, since the flag is a gateway flag.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sharedSuite, startGateway } from '@orch/testing';
import type { Suite } from '@orch/testing';

const group = 'flowcontrol.apiserver.orch.io';
const keepZero = 'flowcontrol.k8s.io/v1beta3-preserve-zero-concurrency-shares';
const suffix = Date.now().toString(36);
const plcs = (version: string) => `/apis/${group}/${version}/prioritylevelconfigurations`;
const flowSchemas = (version: string) => `/apis/${group}/${version}/flowschemas`;
const created: string[] = [];

let shared: Suite;
let beta: Suite;

const plc = (
  version: string,
  name: string,
  limited: Record<string, unknown>,
  annotations = {}
) => ({
  apiVersion: `${group}/${version}`,
  kind: 'PriorityLevelConfiguration',
  metadata: { name, annotations },
  spec: { type: 'Limited', limited: { limitResponse: { type: 'Reject' }, ...limited } },
});

async function create(suite: Suite, path: string, body: { metadata: { name: string } }) {
  const r = await suite.request(0, 'POST', path, body);
  assert.equal(r.status, 201, r.text);
  created.push(`${path.replace(/\/v1beta3\//, '/v1/')}/${body.metadata.name}`);
  return r;
}

const limitedOf = (body: unknown) =>
  (body as { spec: { limited: Record<string, unknown> } }).spec.limited;
const annotationsOf = (body: unknown) =>
  (body as { metadata: { annotations?: Record<string, string> } }).metadata.annotations;

before(async () => {
  shared = await sharedSuite();
  beta = await startGateway(shared, { args: [`--runtime-config=${group}/v1beta3=true`] });
});

after(async () => {
  for (const path of created.reverse()) await shared.request(0, 'DELETE', path);
  await beta?.stop();
  await shared.stop();
});

test('flowcontrol v1beta3 is off by default: 404, and discovery lists only v1', async () => {
  assert.equal((await shared.request(0, 'GET', plcs('v1beta3'))).status, 404);
  const discovered = await shared.request(0, 'GET', `/apis/${group}`);
  assert.deepEqual(
    (discovered.body as { versions: { version: string }[] }).versions.map((v) => v.version),
    ['v1']
  );
});

test('flowcontrol v1beta3 turned on: discovered after v1, v1 preferred; every request warned as upstream, in the group names asked', async () => {
  const discovered = (await beta.request(0, 'GET', `/apis/${group}`)).body as {
    versions: { version: string }[];
    preferredVersion: { version: string };
  };
  assert.deepEqual(
    discovered.versions.map((v) => v.version),
    ['v1', 'v1beta3']
  );
  assert.equal(discovered.preferredVersion.version, 'v1');
  for (const [path, kind] of [
    [plcs('v1beta3'), 'PriorityLevelConfiguration'],
    [flowSchemas('v1beta3'), 'FlowSchema'],
  ] as const) {
    const r = await beta.request(0, 'GET', path);
    assert.equal(r.status, 200, r.text);
    assert.equal(
      r.headers['warning'],
      `299 - "${group}/v1beta3 ${kind} is deprecated in v1.29+, unavailable in v1.32+; use ${group}/v1 ${kind}"`
    );
  }
  assert.equal((await beta.request(0, 'GET', plcs('v1'))).headers['warning'], undefined);
  // Under the upstream group's alias, the warning names it, as upstream's own words.
  const aliased = await beta.request(
    0,
    'GET',
    '/apis/flowcontrol.apiserver.k8s.io/v1beta3/prioritylevelconfigurations'
  );
  assert.equal(aliased.status, 200, aliased.text);
  assert.equal(
    aliased.headers['warning'],
    '299 - "flowcontrol.apiserver.k8s.io/v1beta3 PriorityLevelConfiguration is deprecated in v1.29+, unavailable in v1.32+; use flowcontrol.apiserver.k8s.io/v1 PriorityLevelConfiguration"'
  );
});

test('v1beta3 nominalConcurrencyShares: unset or zero is 30 unless the annotation keeps the zero', async () => {
  const unset = await create(beta, plcs('v1beta3'), plc('v1beta3', `unset-${suffix}`, {}));
  assert.equal(limitedOf(unset.body)['nominalConcurrencyShares'], 30);
  const zero = await create(
    beta,
    plcs('v1beta3'),
    plc('v1beta3', `zero-${suffix}`, { nominalConcurrencyShares: 0 })
  );
  assert.equal(limitedOf(zero.body)['nominalConcurrencyShares'], 30);
  const kept = await create(
    beta,
    plcs('v1beta3'),
    plc('v1beta3', `kept-${suffix}`, { nominalConcurrencyShares: 0 }, { [keepZero]: '' })
  );
  assert.equal(limitedOf(kept.body)['nominalConcurrencyShares'], 0);
  assert.deepEqual(annotationsOf(kept.body), { [keepZero]: '' }, 'v1beta3 answers with it');
  const asV1 = await beta.request(0, 'GET', `${plcs('v1')}/kept-${suffix}`);
  assert.equal(limitedOf(asV1.body)['nominalConcurrencyShares'], 0);
  assert.equal(annotationsOf(asV1.body), undefined, 'the annotation is not stored');
});

test('a v1 zero reads in v1beta3 with the annotation, and a v1beta3 round trip keeps it zero', async () => {
  const name = `v1zero-${suffix}`;
  await create(beta, plcs('v1'), plc('v1', name, { nominalConcurrencyShares: 0 }));
  const read = await beta.request(0, 'GET', `${plcs('v1beta3')}/${name}`);
  assert.equal(read.status, 200, read.text);
  assert.equal((read.body as { apiVersion: string }).apiVersion, `${group}/v1beta3`);
  assert.equal(limitedOf(read.body)['nominalConcurrencyShares'], 0);
  assert.deepEqual(annotationsOf(read.body), { [keepZero]: '' });
  const put = await beta.request(0, 'PUT', `${plcs('v1beta3')}/${name}`, read.body);
  assert.equal(put.status, 200, put.text);
  const v1 = await beta.request(0, 'GET', `${plcs('v1')}/${name}`);
  assert.equal(limitedOf(v1.body)['nominalConcurrencyShares'], 0);
  assert.equal(annotationsOf(v1.body), undefined);
});

test('a FlowSchema written in v1beta3 is the same object in v1', async () => {
  const name = `fs-${suffix}`;
  const spec = {
    priorityLevelConfiguration: { name: `unset-${suffix}` },
    matchingPrecedence: 5000,
    distinguisherMethod: { type: 'ByUser' },
    rules: [
      {
        subjects: [{ kind: 'User', user: { name: 'someone' } }],
        nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/version'] }],
      },
    ],
  };
  await create(beta, flowSchemas('v1beta3'), {
    apiVersion: `${group}/v1beta3`,
    kind: 'FlowSchema',
    metadata: { name },
    spec,
  } as { metadata: { name: string } });
  const v1 = await beta.request(0, 'GET', `${flowSchemas('v1')}/${name}`);
  assert.equal(v1.status, 200, v1.text);
  assert.deepEqual((v1.body as { spec: unknown }).spec, spec);
});
