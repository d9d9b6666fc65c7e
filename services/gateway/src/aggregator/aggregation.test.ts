// The aggregation path on the shared suite with a real extension server (@orch/testing's metrics
// server): an APIService naming a Service with a ready EndpointSlice turns Available (Passed),
// requests for its group go to the server through the front proxy with the user, and the
// condition follows the server (FailedDiscoveryCheck when it stops, Passed when it is back) and
// the Service (ServiceNotFound), as kube-aggregator's availability controller words them.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import {
  metricsGroup,
  registrationOf,
  requestUntil,
  sharedSuite,
  startExtensionServer,
  waitFor,
} from '@orch/testing';
import type { ExtensionServer, Suite } from '@orch/testing';

const suffix = randomBytes(3).toString('hex');
const ns = `aggregation-${suffix}`;
const service = 'metrics-server';
const apiServiceName = `v1beta1.${metricsGroup}`;
const apiServicePath = `/apis/apiregistration.orch.io/v1/apiservices/${apiServiceName}`;
const data = {
  nodes: [{ name: 'node-a', usage: { cpu: '250m', memory: '512Mi' } }],
  pods: [
    {
      namespace: ns,
      name: 'web',
      containers: [{ name: 'app', usage: { cpu: '10m', memory: '20Mi' } }],
    },
  ],
};

let suite: Suite;
let server: ExtensionServer;
let caPem: string;

type Condition = { type: string; status: string; reason: string; message: string };
async function available(): Promise<Condition | undefined> {
  const r = await suite.request(0, 'GET', apiServicePath);
  const conditions = (r.body as { status?: { conditions?: Condition[] } }).status?.conditions;
  return conditions?.find((c) => c.type === 'Available');
}

/** An update of the APIService (an annotation), which makes the controller check it again. */
async function touch(): Promise<void> {
  const r = await suite.request(
    0,
    'PATCH',
    apiServicePath,
    { metadata: { annotations: { touched: String(Date.now()) } } },
    { 'Content-Type': 'application/merge-patch+json' }
  );
  assert.equal(r.status, 200, r.text);
}

async function availableAs(reason: string, status: string): Promise<Condition> {
  let last: Condition | undefined;
  await waitFor(
    `the APIService ${status} (${reason})`,
    async () => {
      last = await available();
      return last?.reason === reason && last.status === status;
    },
    { timeoutMs: 30_000 }
  ).catch((err: Error) => {
    throw new Error(`${err.message}; last: ${JSON.stringify(last)}`);
  });
  return last!;
}

before(async () => {
  suite = await sharedSuite();
  caPem = readFileSync(suite.pki.caFile, 'utf8');
  // A server with legacy discovery only: the gateway falls back to its APIResourceList.
  server = await startExtensionServer({
    service: { namespace: ns, name: service },
    requestHeaderCaPem: caPem,
    data,
    legacyDiscoveryOnly: true,
  });
  const made = [await suite.request(0, 'POST', '/api/v1/namespaces', { metadata: { name: ns } })];
  for (const o of registrationOf(server, { namespace: ns, service }))
    made.push(await suite.request(0, 'POST', o.path, o.body));
  for (const r of made) assert.equal(r.status, 201, r.text);
});

after(async () => {
  await suite.request(0, 'DELETE', apiServicePath);
  await suite.request(0, 'DELETE', `/api/v1/namespaces/${ns}`);
  await server.stop();
  await suite.stop();
});

test('an APIService whose server answers turns Available (Passed) and its group is proxied with the user', async () => {
  const c = await availableAs('Passed', 'True');
  assert.equal(c.message, 'all checks passed');
  for (const g of [0, 1]) {
    // Each gateway proxies once its own view of the APIService has the condition: the other
    // gateway's may come a moment after the status write (503 meanwhile, as upstream's).
    const r = await requestUntil(
      suite,
      g,
      `/apis/${metricsGroup}/v1beta1/nodes`,
      (a) => a.status !== 503,
      {
        timeoutMs: 10_000,
      }
    );
    assert.equal(r.status, 200, `gateway ${g}: ${r.text}`);
    const list = r.body as { kind: string; items: { metadata: { name: string } }[] };
    assert.equal(list.kind, 'NodeMetricsList');
    assert.deepEqual(
      list.items.map((i) => i.metadata.name),
      ['node-a']
    );
  }
  const pod = await suite.request(
    0,
    'GET',
    `/apis/${metricsGroup}/v1beta1/namespaces/${ns}/pods/web`
  );
  assert.equal(pod.status, 200, pod.text);
  assert.equal((pod.body as { kind: string }).kind, 'PodMetrics');
  // The front proxy names the user; the availability probe asks as the aggregator.
  assert.ok(server.users().includes('orch-admin'), server.users().join(', '));
  assert.ok(server.users().includes('system:kube-aggregator'), server.users().join(', '));
});

test("discovery lists the extension server's group: legacy from the APIService, aggregated with its resources", async () => {
  await availableAs('Passed', 'True');
  const legacy = await suite.request(0, 'GET', '/apis');
  const groups = (legacy.body as { groups: { name: string; preferredVersion: object }[] }).groups;
  assert.deepEqual(groups.find((g) => g.name === metricsGroup)?.preferredVersion, {
    groupVersion: `${metricsGroup}/v1beta1`,
    version: 'v1beta1',
  });
  // The group's own document comes with the discovery fetch, which may follow the condition.
  const one = await requestUntil(suite, 0, `/apis/${metricsGroup}`, (a) => a.status !== 404, {
    timeoutMs: 10_000,
  });
  assert.equal(one.status, 200, one.text);
  const accept = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';
  type Group = {
    metadata: { name: string };
    versions: { version: string; resources: { resource: string; scope: string }[] }[];
  };
  let group: Group | undefined;
  await waitFor(
    "the aggregated document has the group's resources",
    async () => {
      const r = await suite.request(1, 'GET', '/apis', undefined, { Accept: accept });
      group = (r.body as { items: Group[] }).items.find((g) => g.metadata.name === metricsGroup);
      return (group?.versions[0]?.resources.length ?? 0) > 0;
    },
    { timeoutMs: 30_000 }
  );
  assert.deepEqual(
    group!.versions[0]!.resources.map((r) => `${r.resource} ${r.scope}`),
    ['nodes Cluster', 'pods Namespaced']
  );
  const asked = server.calls.map((c) => `${c.path} ${String(c.headers.accept)}`);
  assert.ok(
    asked.some((a) => a.startsWith('/apis application/json;g=apidiscovery.k8s.io;v=v2;')),
    'the aggregated form was asked for first'
  );
  assert.ok(
    asked.some((a) => a.startsWith(`/apis/${metricsGroup}/v1beta1 `)),
    'then the legacy list'
  );
});

test('the server stops: FailedDiscoveryCheck and 503; it comes back: Passed again', async () => {
  await availableAs('Passed', 'True');
  const { port, serving } = server;
  await server.stop();
  await touch();
  const down = await availableAs('FailedDiscoveryCheck', 'False');
  assert.match(
    down.message,
    new RegExp(
      `^failing or missing response from https://127\\.0\\.0\\.1:${port}/apis/${metricsGroup}/v1beta1: .*connection refused`
    )
  );
  const r = await suite.request(0, 'GET', `/apis/${metricsGroup}/v1beta1/nodes`);
  assert.equal(r.status, 503, r.text);
  server = await startExtensionServer({
    service: { namespace: ns, name: service },
    requestHeaderCaPem: caPem,
    data,
    legacyDiscoveryOnly: true,
    port,
    serving,
  });
  // no touch: a failed check is retried by the controller itself
  await availableAs('Passed', 'True');
});

test('the Service goes: ServiceNotFound', async () => {
  await availableAs('Passed', 'True');
  const gone = await suite.request(0, 'DELETE', `/api/v1/namespaces/${ns}/services/${service}`);
  assert.equal(gone.status, 200, gone.text);
  const c = await availableAs('ServiceNotFound', 'False');
  assert.equal(c.message, `service/${service} in "${ns}" is not present`);
});
