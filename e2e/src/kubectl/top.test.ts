// kubectl top and the aggregation path with the real kubectl: the test extension server
// (metrics.k8s.io, as a metrics server serves it) registered by a Service, an EndpointSlice and
// an APIService; once the gateways find it Available, `kubectl top nodes|pods`, `kubectl
// api-resources` and `kubectl get --raw` reach it through the gateway, and `kubectl explain`
// reads its kinds from the OpenAPI v3 document the gateway merged from it. When the server stops,
// kubectl sees the APIService unavailable and `kubectl top` fail; started again, both come back.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  metricsGroup,
  registrationOf,
  sharedSuite,
  startExtensionServer,
  waitFor,
} from '@orch/testing';
import type { ExtensionServer, ExtensionServerOptions, Suite } from '@orch/testing';
import { kubectlFor } from './run-kubectl.js';

const ns = 'kubectl-top';
const node = 'kubectl-top-node';
const apiService = `v1beta1.${metricsGroup}`;
let suite: Suite;
let server: ExtensionServer;
let serverOptions: ExtensionServerOptions;
const dir = mkdtempSync(join(tmpdir(), 'orch-top-'));
const { kubectl, ok } = kubectlFor(() => suite.kubeconfigs[0]!, join(dir, 'cache'));

before(async () => {
  suite = await sharedSuite();
  serverOptions = {
    service: { namespace: ns, name: 'metrics-server' },
    requestHeaderCaPem: readFileSync(suite.pki.caFile, 'utf8'),
    data: {
      nodes: [{ name: node, usage: { cpu: '250m', memory: '512Mi' } }],
      pods: [
        {
          namespace: ns,
          name: 'web',
          containers: [{ name: 'app', usage: { cpu: '12m', memory: '20Mi' } }],
        },
      ],
    },
  };
  server = await startExtensionServer(serverOptions);
  await ok(['create', 'namespace', ns]);
  await ok(['apply', '-f', '-'], `apiVersion: v1\nkind: Node\nmetadata: {name: ${node}}\n`);
  const allocatable = {
    status: { allocatable: { cpu: '2', memory: '4Gi' }, capacity: { cpu: '2', memory: '4Gi' } },
  };
  await ok(['patch', 'node', node, '--subresource=status', '-p', JSON.stringify(allocatable)]);
  for (const o of registrationOf(server, { namespace: ns, service: 'metrics-server' })) {
    const r = await suite.request(0, 'POST', o.path, o.body);
    assert.equal(r.status, 201, r.text);
  }
  await waitFor(
    'the APIService is Available',
    async () =>
      (
        await kubectl([
          'get',
          'apiservice',
          apiService,
          '-o',
          'jsonpath={.status.conditions[?(@.type=="Available")].status}',
        ])
      ).stdout === 'True',
    { timeoutMs: 30_000 }
  );
});

after(async () => {
  await kubectl(['delete', 'apiservice', apiService]);
  await kubectl(['delete', 'namespace', ns, '--wait=false']);
  await kubectl(['delete', 'node', node]);
  await server.stop();
  await suite.stop();
});

test('kubectl get apiservice shows it Available, with its service', async () => {
  const out = await ok(['get', 'apiservice', apiService]);
  assert.match(
    out,
    new RegExp(`^${apiService.replaceAll('.', '\\.')}\\s+${ns}/metrics-server\\s+True\\s`, 'm')
  );
});

test('kubectl top nodes and pods read the extension server through the gateway', async () => {
  // kubectl finds the group through discovery, which lists it once a gateway has fetched it.
  let nodes = '';
  await waitFor(
    'kubectl top nodes answers',
    async () => {
      const r = await kubectl(['top', 'nodes', node]);
      nodes = r.stdout;
      return r.code === 0;
    },
    { timeoutMs: 30_000 }
  );
  assert.match(nodes, /^NAME\s+CPU\(cores\)\s+CPU(%|\(%\))\s+MEMORY\(bytes\)\s+MEMORY(%|\(%\))/m);
  assert.match(nodes, new RegExp(`^${node}\\s+250m\\s+12%\\s+512Mi\\s+12%`, 'm'));
  const pods = await ok(['top', 'pods', '-n', ns]);
  assert.match(pods, /^web\s+12m\s+20Mi/m);
  const containers = await ok(['top', 'pods', '-n', ns, '--containers']);
  assert.match(containers, /^web\s+app\s+12m\s+20Mi/m);
  assert.ok(server.users().includes('orch-admin'), 'the front proxy names the user');
});

test('kubectl api-resources lists the group; get --raw goes through the proxy', async () => {
  const resources = await ok(['api-resources', `--api-group=${metricsGroup}`]);
  assert.match(
    resources,
    new RegExp(
      `^nodes\\s+${metricsGroup.replaceAll('.', '\\.')}/v1beta1\\s+false\\s+NodeMetrics`,
      'm'
    )
  );
  assert.match(
    resources,
    new RegExp(`^pods\\s+${metricsGroup.replaceAll('.', '\\.')}/v1beta1\\s+true\\s+PodMetrics`, 'm')
  );
  const raw = JSON.parse(
    await ok(['get', '--raw', `/apis/${metricsGroup}/v1beta1/nodes/${node}`])
  ) as {
    kind: string;
    usage: { cpu: string };
  };
  assert.equal(raw.kind, 'NodeMetrics');
  assert.equal(raw.usage.cpu, '250m');
  // The server serves aggregated discovery: its resources are taken as it lists them.
  const aggregated = await suite.request(0, 'GET', '/apis', undefined, {
    Accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList',
  });
  type Item = {
    metadata: { name: string };
    versions: { resources: { singularResource: string; responseKind: { group: string } }[] }[];
  };
  const item = (aggregated.body as { items: Item[] }).items.find(
    (i) => i.metadata.name === metricsGroup
  );
  assert.deepEqual(
    item?.versions[0]?.resources.map((r) => `${r.singularResource} ${r.responseKind.group}`),
    [`nodemetrics ${metricsGroup}`, `podmetrics ${metricsGroup}`]
  );
});

test("kubectl explain reads the extension server's kinds from the merged OpenAPI v3", async () => {
  let out = '';
  await waitFor(
    'kubectl explain finds NodeMetrics',
    async () => {
      const r = await kubectl(['explain', 'nodes', `--api-version=${metricsGroup}/v1beta1`]);
      out = r.stdout;
      return r.code === 0;
    },
    { timeoutMs: 30_000 }
  );
  assert.match(out, /KIND:\s+NodeMetrics/);
  assert.match(out, /NodeMetrics sets resource usage metrics of a node\./);
  assert.match(out, /usage\t<map\[string\]string> -required-/);
  const field = await ok(['explain', 'pods.containers', `--api-version=${metricsGroup}/v1beta1`]);
  assert.match(field, /Metrics for all containers are collected within the same time window\./);
  const root = JSON.parse(await ok(['get', '--raw', '/openapi/v3'])) as {
    paths: Record<string, { serverRelativeURL: string }>;
  };
  const url = root.paths[`apis/${metricsGroup}/v1beta1`]?.serverRelativeURL ?? '';
  assert.match(
    url,
    new RegExp(`^/openapi/v3/apis/${metricsGroup.replaceAll('.', '\\.')}/v1beta1\\?hash=[0-9A-F]+$`)
  );
  assert.ok(root.paths['api/v1'], "the gateway's own group versions are still listed");
});

test("/openapi/v2 merges the server's definitions, in JSON and in protobuf", async () => {
  const name = 'io.k8s.metrics.pkg.apis.metrics.v1beta1.PodMetrics';
  let v2: { definitions: Record<string, { description?: string }> } = { definitions: {} };
  await waitFor(
    "the merged document has the server's definitions",
    async () => {
      // (the document is larger than the 1 MB execFile keeps of kubectl's output)
      v2 = JSON.parse((await suite.request(0, 'GET', '/openapi/v2')).text) as typeof v2;
      return v2.definitions[name] !== undefined;
    },
    { timeoutMs: 30_000 }
  );
  assert.equal(
    v2.definitions[name]?.description,
    'PodMetrics sets resource usage metrics of a pod.'
  );
  assert.ok(v2.definitions['io.orch.api.core.v1.Pod'], "the gateway's own definitions stay");
  const pb = await suite.request(0, 'GET', '/openapi/v2', undefined, {
    Accept: 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf',
  });
  assert.equal(pb.status, 200);
  assert.ok(pb.text.includes(name), 'the protobuf form has them too');
});

test('the server stops: kubectl sees the APIService unavailable; it comes back: Available again', async () => {
  const column = async () =>
    (
      await kubectl([
        'get',
        'apiservice',
        apiService,
        '-o',
        'jsonpath={.status.conditions[?(@.type=="Available")].status}/{.status.conditions[?(@.type=="Available")].reason}',
      ])
    ).stdout;
  const { port, serving } = server;
  await server.stop();
  // A change of the APIService makes the gateways check it now rather than within 30 s.
  await ok(['annotate', 'apiservice', apiService, `touched=${Date.now()}`, '--overwrite']);
  await waitFor(
    'kubectl get apiservice shows it unavailable',
    async () => (await column()) === 'False/FailedDiscoveryCheck',
    { timeoutMs: 30_000 }
  );
  const out = await ok(['get', 'apiservice', apiService]);
  assert.match(out, /False \(FailedDiscoveryCheck\)/);
  const top = await kubectl(['top', 'nodes', node]);
  assert.notEqual(top.code, 0, 'kubectl top fails while the server is down');
  server = await startExtensionServer({ ...serverOptions, port, serving });
  // No help from the test: the gateways retry a failed check with a backoff.
  await waitFor(
    'kubectl get apiservice shows it Available',
    async () => (await column()) === 'True/Passed',
    { timeoutMs: 30_000 }
  );
  await waitFor(
    'kubectl top nodes answers again',
    async () => (await kubectl(['top', 'nodes', node])).code === 0,
    { timeoutMs: 30_000 }
  );
});
