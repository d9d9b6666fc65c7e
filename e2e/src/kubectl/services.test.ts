// Services with kubectl: `kubectl create service` gets a cluster IP from the gateway's range and
// a node port, `kubectl get svc` shows them, a manifest asking for a taken IP is refused with
// upstream's message, and `kubectl get --raw` with the query spellings other clients use.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSuite } from '@orch/testing';
import type { Suite } from '@orch/testing';
import { runKubectl } from './run-kubectl.js';

let suite: Suite;
const dir = mkdtempSync(join(tmpdir(), 'orch-services-'));
const ns = 'kubectl-services';
const kubectl = (args: string[], input?: string) =>
  runKubectl(suite.kubeconfigs[0]!, join(dir, 'cache'), args, input);

before(async () => {
  suite = await startSuite({
    gatewayArgs: [
      '--service-cluster-ip-range=10.99.0.0/24',
      '--service-node-port-range=31000-31099',
    ],
  });
  const r = await kubectl(['create', 'namespace', ns]);
  assert.equal(r.code, 0, r.stderr);
});

after(async () => {
  await suite.stop();
});

test('kubectl create service clusterip / nodeport: addresses and ports from the flags', async () => {
  const a = await kubectl(['-n', ns, 'create', 'service', 'clusterip', 'web', '--tcp=80:8080']);
  assert.equal(a.code, 0, a.stderr);
  const b = await kubectl(['-n', ns, 'create', 'service', 'nodeport', 'edge', '--tcp=443:8443']);
  assert.equal(b.code, 0, b.stderr);
  const ip = await kubectl(['-n', ns, 'get', 'svc', 'web', '-o', 'jsonpath={.spec.clusterIP}']);
  assert.match(ip.stdout, /^10\.99\.0\.\d+$/);
  const port = await kubectl([
    '-n',
    ns,
    'get',
    'svc',
    'edge',
    '-o',
    'jsonpath={.spec.ports[0].nodePort}',
  ]);
  assert.ok(Number(port.stdout) >= 31000 && Number(port.stdout) <= 31099, port.stdout);
  const table = await kubectl(['-n', ns, 'get', 'svc', 'edge']);
  assert.equal(table.code, 0, table.stderr);
  assert.match(
    table.stdout,
    new RegExp(`edge\\s+NodePort\\s+10\\.99\\.0\\.\\d+\\s+<none>\\s+443:${port.stdout}/TCP`)
  );
});

test('kubectl apply of a Service asking for a taken IP: upstream message, nothing stored', async () => {
  const ip = (await kubectl(['-n', ns, 'get', 'svc', 'web', '-o', 'jsonpath={.spec.clusterIP}']))
    .stdout;
  const manifest = JSON.stringify({
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'copycat', namespace: ns },
    spec: { clusterIP: ip, ports: [{ port: 80 }] },
  });
  const r = await kubectl(['apply', '-f', '-'], manifest);
  assert.notEqual(r.code, 0);
  assert.match(
    r.stderr,
    new RegExp(
      `spec\\.clusterIPs\\[0\\]: Invalid value: "${ip.replaceAll('.', '\\.')}": provided IP is already allocated`
    )
  );
  const got = await kubectl(['-n', ns, 'get', 'svc', 'copycat']);
  assert.notEqual(got.code, 0);
});

test("kubectl get --raw with other clients' spellings: limit=+1 pages (strconv.ParseInt), limit=one is 400", async () => {
  const paged = await kubectl(['get', '--raw', `/api/v1/namespaces/${ns}/services?limit=%2B1`]);
  assert.equal(paged.code, 0, paged.stderr);
  const list = JSON.parse(paged.stdout) as { items: unknown[]; metadata: { continue?: string } };
  assert.equal(list.items.length, 1);
  assert.ok(list.metadata.continue, 'a continue token for the next page');
  const bad = await kubectl(['get', '--raw', `/api/v1/namespaces/${ns}/services?limit=one`]);
  assert.notEqual(bad.code, 0);
  assert.match(bad.stderr, /strconv\.ParseInt: parsing \\?"one\\?": invalid syntax|BadRequest/);
});
