// Service cluster IPs and node ports over HTTPS against a real suite with two gateways (real
// etcd, NATS, storage): allocation from the flags' ranges, requested values, upstream's refusals,
// immutability, release on delete and on a type change, dry run, and no double allocation under
// concurrent creates through both gateways (the bitmaps are compare-and-swapped in storage).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startSuite, waitFor } from '@orch/testing';
import type { Suite, SuiteResponse } from '@orch/testing';

let suite: Suite;
const ns = 'svc-alloc';
const base = `/api/v1/namespaces/${ns}/services`;
const cidr = '10.96.0.0/26'; // 62 usable: 10.96.0.1 - 10.96.0.62
const ports = '30100-30199';

type Svc = {
  metadata: { name: string; resourceVersion?: string };
  spec: {
    type?: string;
    clusterIP?: string;
    clusterIPs?: string[];
    ipFamilies?: string[];
    ipFamilyPolicy?: string;
    ports?: { name?: string; port: number; nodePort?: number; targetPort?: number }[];
    externalName?: string;
  };
};

const svc = (name: string, spec: Partial<Svc['spec']> = {}) => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name },
  spec: { selector: { app: name }, ports: [{ port: 80 }], ...spec },
});

const create = (gw: number, body: unknown, query = ''): Promise<SuiteResponse> =>
  suite.request(gw, 'POST', `${base}${query}`, body);
const specOf = (r: SuiteResponse): Svc['spec'] => (r.body as Svc).spec;
const messageOf = (r: SuiteResponse): string => (r.body as { message: string }).message;

const inRange = (ip: string): boolean => {
  const m = /^10\.96\.0\.(\d+)$/.exec(ip);
  return !!m && Number(m[1]) >= 1 && Number(m[1]) <= 62;
};

before(async () => {
  suite = await startSuite({
    gateways: 2,
    gatewayArgs: [`--service-cluster-ip-range=${cidr}`, `--service-node-port-range=${ports}`],
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

test('default/kubernetes: the first address of the range, port 443 to the gateway (created at start)', async () => {
  let got: SuiteResponse | undefined;
  await waitFor(
    'the default/kubernetes service',
    async () => {
      got = await suite.request(0, 'GET', '/api/v1/namespaces/default/services/kubernetes');
      return got.status === 200;
    },
    { timeoutMs: 20_000 }
  );
  const s = specOf(got!);
  assert.equal(s.clusterIP, '10.96.0.1');
  assert.equal(s.ports?.[0]?.port, 443);
  assert.equal(s.ports?.[0]?.name, 'https');
  const taken = await create(1, svc('wants-first', { clusterIP: '10.96.0.1' }));
  assert.equal(taken.status, 422, taken.text);
});

test('a ClusterIP Service gets an address of --service-cluster-ip-range, single-stack IPv4', async () => {
  const r = await create(0, svc('plain'));
  assert.equal(r.status, 201, r.text);
  const s = specOf(r);
  assert.ok(s.clusterIP && inRange(s.clusterIP), s.clusterIP);
  assert.deepEqual(s.clusterIPs, [s.clusterIP]);
  assert.deepEqual(s.ipFamilies, ['IPv4']);
  assert.equal(s.ipFamilyPolicy, 'SingleStack');
  assert.equal(s.type, 'ClusterIP');
  assert.equal(s.ports?.[0]?.targetPort, 80, 'targetPort defaults to port');
  const got = await suite.request(1, 'GET', `${base}/plain`);
  assert.equal(specOf(got).clusterIP, s.clusterIP);
});

test('a requested free IP is allocated; asked again it is refused with upstream message', async () => {
  const first = await create(0, svc('want-a', { clusterIP: '10.96.0.5' }));
  assert.equal(first.status, 201, first.text);
  assert.deepEqual(specOf(first).clusterIPs, ['10.96.0.5']);
  const second = await create(1, svc('want-b', { clusterIP: '10.96.0.5' }));
  assert.equal(second.status, 422, second.text);
  assert.match(
    messageOf(second),
    /spec\.clusterIPs\[0\]: Invalid value: "10\.96\.0\.5": provided IP is already allocated/
  );
  assert.equal((await suite.request(0, 'GET', `${base}/want-b`)).status, 404, 'nothing stored');
});

test('clusterIPs alone is taken as the request too', async () => {
  const r = await create(1, svc('want-ips', { clusterIPs: ['10.96.0.6'] }));
  assert.equal(r.status, 201, r.text);
  assert.equal(specOf(r).clusterIP, '10.96.0.6');
});

test('an IP outside the range is refused naming the range', async () => {
  const r = await create(0, svc('outside', { clusterIP: '10.200.0.9' }));
  assert.equal(r.status, 422, r.text);
  assert.match(
    messageOf(r),
    /spec\.clusterIPs\[0\]: Invalid value: "10\.200\.0\.9": provided IP is not in the valid range\. The range of valid IPs is 10\.96\.0\.0\/26/
  );
});

test('an address that is no IP is refused by validation', async () => {
  const r = await create(0, svc('garbage', { clusterIP: 'ten.0.0.1' }));
  assert.equal(r.status, 422, r.text);
  assert.match(
    messageOf(r),
    /spec\.clusterIPs\[0\]: Invalid value: "ten\.0\.0\.1": must be a valid IP address/
  );
});

test('headless: clusterIP None is kept and no address is taken', async () => {
  const r = await create(0, svc('headless', { clusterIP: 'None' }));
  assert.equal(r.status, 201, r.text);
  assert.equal(specOf(r).clusterIP, 'None');
  assert.deepEqual(specOf(r).clusterIPs, ['None']);
});

test('ExternalName gets no address; a clusterIP on it is refused', async () => {
  const r = await create(0, {
    ...svc('ext', { type: 'ExternalName', externalName: 'db.example.com' }),
  });
  assert.equal(r.status, 201, r.text);
  assert.equal(specOf(r).clusterIP, undefined);
  const bad = await create(
    0,
    svc('ext-ip', { type: 'ExternalName', externalName: 'x.example.com', clusterIP: '10.96.0.7' })
  );
  assert.equal(bad.status, 422, bad.text);
  assert.match(
    messageOf(bad),
    /spec\.clusterIP: Forbidden: may not be set for ExternalName services/
  );
});

test('NodePort: a port of --service-node-port-range is handed out; a taken one is refused', async () => {
  const r = await create(0, svc('np', { type: 'NodePort' }));
  assert.equal(r.status, 201, r.text);
  const port = specOf(r).ports?.[0]?.nodePort ?? 0;
  assert.ok(port >= 30100 && port <= 30199, String(port));
  const taken = await create(
    1,
    svc('np-b', { type: 'NodePort', ports: [{ port: 80, nodePort: port }] })
  );
  assert.equal(taken.status, 422, taken.text);
  assert.match(
    messageOf(taken),
    new RegExp(
      `spec\\.ports\\[0\\]\\.nodePort: Invalid value: ${port}: provided port is already allocated`
    )
  );
  const outside = await create(
    1,
    svc('np-c', { type: 'NodePort', ports: [{ port: 80, nodePort: 31000 }] })
  );
  assert.equal(outside.status, 422, outside.text);
  assert.match(
    messageOf(outside),
    /spec\.ports\[0\]\.nodePort: Invalid value: 31000: provided port is not in the valid range\. The range of valid ports is 30100-30199/
  );
  const onClusterIP = await create(1, svc('np-d', { ports: [{ port: 80, nodePort: 30150 }] }));
  assert.equal(onClusterIP.status, 422, onClusterIP.text);
  assert.match(
    messageOf(onClusterIP),
    /spec\.ports\[0\]\.nodePort: Forbidden: may not be used when `type` is 'ClusterIP'/
  );
});

test('an update cannot change clusterIP (upstream message); one that leaves it out keeps it', async () => {
  const r = await create(0, svc('immutable'));
  assert.equal(r.status, 201, r.text);
  const s = r.body as Svc;
  const ip = s.spec.clusterIP ?? '';
  // Requested addresses come from the static band (the first 16), which random allocation
  // leaves alone while the rest has room (upstream's ServiceIPStaticSubrange).
  const other = ip === '10.96.0.13' ? '10.96.0.14' : '10.96.0.13';
  const changed = structuredClone(s);
  changed.spec.clusterIP = other;
  changed.spec.clusterIPs = [other];
  const put = await suite.request(1, 'PUT', `${base}/immutable`, changed);
  assert.equal(put.status, 422, put.text);
  assert.match(messageOf(put), /spec\.clusterIPs\[0\]: Invalid value: .*may not change once set/);
  // Only clusterIP changed (an older client): refused the same way.
  const older = structuredClone(s);
  older.spec.clusterIP = other;
  const put2 = await suite.request(1, 'PUT', `${base}/immutable`, older);
  assert.equal(put2.status, 422, put2.text);
  // Left out: kept (patchAllocatedValues), as kubectl replace of a hand-written manifest does.
  const without = structuredClone(s);
  delete without.spec.clusterIP;
  delete without.spec.clusterIPs;
  without.metadata.resourceVersion = undefined;
  const put3 = await suite.request(0, 'PUT', `${base}/immutable`, without);
  assert.equal(put3.status, 200, put3.text);
  assert.equal(specOf(put3).clusterIP, ip);
  // The refused address was not taken by the refused updates.
  const probe = await create(0, svc('probe-other', { clusterIP: other }));
  assert.equal(probe.status, 201, probe.text);
});

test('delete releases the address and the node port', async () => {
  const r = await create(
    0,
    svc('to-delete', {
      type: 'NodePort',
      clusterIP: '10.96.0.9',
      ports: [{ port: 80, nodePort: 30109 }],
    })
  );
  assert.equal(r.status, 201, r.text);
  assert.equal((await suite.request(1, 'DELETE', `${base}/to-delete`)).status, 200);
  const again = await create(
    1,
    svc('reuse', {
      type: 'NodePort',
      clusterIP: '10.96.0.9',
      ports: [{ port: 80, nodePort: 30109 }],
    })
  );
  assert.equal(again.status, 201, again.text);
});

test('a type change from NodePort to ClusterIP releases the node port', async () => {
  const r = await create(
    0,
    svc('shrink', { type: 'NodePort', ports: [{ port: 80, nodePort: 30112 }] })
  );
  assert.equal(r.status, 201, r.text);
  const patched = await suite.request(
    1,
    'PATCH',
    `${base}/shrink`,
    { spec: { type: 'ClusterIP' } },
    { 'content-type': 'application/merge-patch+json' }
  );
  assert.equal(patched.status, 200, patched.text);
  assert.equal(specOf(patched).ports?.[0]?.nodePort, undefined, 'nodePort dropped with the type');
  assert.equal(specOf(patched).clusterIP, specOf(r).clusterIP, 'the address stays');
  const reuse = await create(
    0,
    svc('grab-port', { type: 'NodePort', ports: [{ port: 80, nodePort: 30112 }] })
  );
  assert.equal(reuse.status, 201, reuse.text);
  // And back to NodePort: a port is handed out again.
  const back = await suite.request(
    0,
    'PATCH',
    `${base}/shrink`,
    { spec: { type: 'NodePort' } },
    { 'content-type': 'application/merge-patch+json' }
  );
  assert.equal(back.status, 200, back.text);
  const np = specOf(back).ports?.[0]?.nodePort ?? 0;
  assert.ok(np >= 30100 && np <= 30199 && np !== 30112, String(np));
});

test('a dry-run create answers an address but takes none', async () => {
  const dry = await create(0, svc('dry', { clusterIP: '10.96.0.11' }), '?dryRun=All');
  assert.equal(dry.status, 201, dry.text);
  assert.equal(specOf(dry).clusterIP, '10.96.0.11');
  const real = await create(1, svc('after-dry', { clusterIP: '10.96.0.11' }));
  assert.equal(real.status, 201, real.text);
});

test('a create that fails after allocation gives the address back (AlreadyExists)', async () => {
  assert.equal((await create(0, svc('twice'))).status, 201);
  const dup = await create(1, svc('twice', { clusterIP: '10.96.0.12' }));
  assert.equal(dup.status, 409, dup.text);
  const free = await create(0, svc('after-dup', { clusterIP: '10.96.0.12' }));
  assert.equal(free.status, 201, free.text);
});

test('RequireDualStack on a single-stack cluster is refused; an IPv6 family is not configured', async () => {
  const r = await create(0, svc('dual', { ipFamilyPolicy: 'RequireDualStack' }));
  assert.equal(r.status, 422, r.text);
  assert.match(
    messageOf(r),
    /spec\.ipFamilyPolicy: Invalid value: "RequireDualStack": this cluster is not configured for dual-stack services/
  );
  const v6 = await create(0, svc('v6', { ipFamilies: ['IPv6'] }));
  assert.equal(v6.status, 422, v6.text);
  assert.match(
    messageOf(v6),
    /spec\.ipFamilies\[0\]: Invalid value: "IPv6": not configured on this cluster/
  );
  const prefer = await create(0, svc('prefer', { ipFamilyPolicy: 'PreferDualStack' }));
  assert.equal(prefer.status, 201, prefer.text);
  assert.deepEqual(specOf(prefer).ipFamilies, ['IPv4'], 'PreferDualStack falls back to one family');
});

test('concurrent creates through two gateways never get the same address or node port', async () => {
  const n = 24;
  const results = await Promise.all(
    Array.from({ length: n }, (_, i) => create(i % 2, svc(`race-${i}`, { type: 'NodePort' })))
  );
  for (const r of results) assert.equal(r.status, 201, r.text);
  const ips = results.map((r) => specOf(r).clusterIP ?? '');
  const nodePorts = results.map((r) => specOf(r).ports?.[0]?.nodePort ?? 0);
  assert.equal(new Set(ips).size, n, `duplicate addresses: ${ips.join(' ')}`);
  assert.equal(new Set(nodePorts).size, n, `duplicate ports: ${nodePorts.join(' ')}`);
  // Nor do they collide with what was handed out before.
  const all = await suite.request(0, 'GET', base);
  const every = (all.body as { items: Svc[] }).items
    .map((s) => s.spec.clusterIP)
    .filter((ip): ip is string => !!ip && ip !== 'None');
  assert.equal(new Set(every).size, every.length, `duplicates among ${every.join(' ')}`);
});
