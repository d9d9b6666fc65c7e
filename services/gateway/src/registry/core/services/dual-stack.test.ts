// A dual-stack cluster (--service-cluster-ip-range with an IPv4 and an IPv6 CIDR) over HTTPS
// against a real suite: ipFamilyPolicy and ipFamilies decided as upstream's initIPFamilyFields,
// one address per family, IPv6-primary Services, upgrade and downgrade of a Service's families.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startSuite } from '@orch/testing';
import type { Suite, SuiteResponse } from '@orch/testing';

let suite: Suite;
const ns = 'dual-stack';
const base = `/api/v1/namespaces/${ns}/services`;
type Spec = {
  clusterIP?: string;
  clusterIPs?: string[];
  ipFamilies?: string[];
  ipFamilyPolicy?: string;
};

const svc = (name: string, spec: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name },
  spec: { selector: { app: name }, ports: [{ port: 80 }], ...spec },
});
const specOf = (r: SuiteResponse): Spec => (r.body as { spec: Spec }).spec;
const v4 = (ip = ''): boolean => /^10\.98\.0\.\d+$/.test(ip);
const v6 = (ip = ''): boolean => /^fd00:98::[0-9a-f]+$/.test(ip);

before(async () => {
  suite = await startSuite({
    gatewayArgs: ['--service-cluster-ip-range=10.98.0.0/24,fd00:98::/112'],
  });
  const r = await suite.request(0, 'POST', '/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: ns },
  });
  assert.equal(r.status, 201);
});

after(async () => {
  await suite.stop();
});

test('no policy: SingleStack of the primary (first) range', async () => {
  const r = await suite.request(0, 'POST', base, svc('single'));
  assert.equal(r.status, 201, r.text);
  const s = specOf(r);
  assert.equal(s.ipFamilyPolicy, 'SingleStack');
  assert.deepEqual(s.ipFamilies, ['IPv4']);
  assert.ok(v4(s.clusterIP), s.clusterIP);
});

test('RequireDualStack: one address of each family, the primary first', async () => {
  const r = await suite.request(
    0,
    'POST',
    base,
    svc('dual', { ipFamilyPolicy: 'RequireDualStack' })
  );
  assert.equal(r.status, 201, r.text);
  const s = specOf(r);
  assert.deepEqual(s.ipFamilies, ['IPv4', 'IPv6']);
  assert.equal(s.clusterIPs?.length, 2);
  assert.ok(v4(s.clusterIPs?.[0]) && v6(s.clusterIPs?.[1]), String(s.clusterIPs));
  assert.equal(s.clusterIP, s.clusterIPs?.[0]);
});

test('ipFamilies [IPv6] with PreferDualStack: IPv6 first, then IPv4', async () => {
  const r = await suite.request(
    0,
    'POST',
    base,
    svc('v6-first', { ipFamilies: ['IPv6'], ipFamilyPolicy: 'PreferDualStack' })
  );
  assert.equal(r.status, 201, r.text);
  const s = specOf(r);
  assert.deepEqual(s.ipFamilies, ['IPv6', 'IPv4']);
  assert.ok(v6(s.clusterIP) && v4(s.clusterIPs?.[1]), String(s.clusterIPs));
});

test('a requested IPv6 address is allocated once; asked again it is refused', async () => {
  const first = await suite.request(0, 'POST', base, svc('v6-want', { clusterIP: 'fd00:98::50' }));
  assert.equal(first.status, 201, first.text);
  assert.deepEqual(specOf(first).ipFamilies, ['IPv6'], 'the family follows the address');
  const again = await suite.request(0, 'POST', base, svc('v6-again', { clusterIP: 'fd00:98::50' }));
  assert.equal(again.status, 422, again.text);
  assert.match(
    (again.body as { message: string }).message,
    /spec\.clusterIPs\[0\]: Invalid value: "fd00:98::50": provided IP is already allocated/
  );
});

test('two families under SingleStack are refused', async () => {
  const r = await suite.request(
    0,
    'POST',
    base,
    svc('bad-policy', { ipFamilies: ['IPv4', 'IPv6'], ipFamilyPolicy: 'SingleStack' })
  );
  assert.equal(r.status, 422, r.text);
  assert.match(
    r.text,
    /must be 'RequireDualStack' or 'PreferDualStack' when multiple 'ipFamilies' are specified/
  );
});

test('upgrade to dual-stack adds a secondary address; downgrade releases it', async () => {
  const created = await suite.request(0, 'POST', base, svc('grow'));
  assert.equal(created.status, 201, created.text);
  const primary = specOf(created).clusterIP;
  const up = await suite.request(
    0,
    'PATCH',
    `${base}/grow`,
    { spec: { ipFamilyPolicy: 'PreferDualStack' } },
    { 'content-type': 'application/merge-patch+json' }
  );
  assert.equal(up.status, 200, up.text);
  const grown = specOf(up);
  assert.equal(grown.clusterIPs?.[0], primary, 'the primary stays');
  assert.ok(v6(grown.clusterIPs?.[1]), String(grown.clusterIPs));
  const secondary = grown.clusterIPs?.[1] ?? '';
  const down = await suite.request(
    0,
    'PATCH',
    `${base}/grow`,
    { spec: { ipFamilyPolicy: 'SingleStack', ipFamilies: ['IPv4'], clusterIPs: [primary] } },
    { 'content-type': 'application/merge-patch+json' }
  );
  assert.equal(down.status, 200, down.text);
  assert.deepEqual(specOf(down).clusterIPs, [primary]);
  const reuse = await suite.request(
    0,
    'POST',
    base,
    svc('takes-secondary', { clusterIP: secondary })
  );
  assert.equal(reuse.status, 201, `the released ${secondary} is free again: ${reuse.text}`);
});
