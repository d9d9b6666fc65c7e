import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { startDiscoveryServer } from './discovery-server.js';
import { builtinResources, ResourceRegistry } from '@orch/apimachinery/registry';
import { enabledResources } from '../resourceconfig/resource-config.js';
import { apiGroups, compareKubeVersions, defaultVersionInfo } from './discovery.js';

const run = promisify(execFile);
// What client-go sends when it does not ask for aggregated discovery (aggregated-discovery.test.ts
// covers the other form).
const accept = 'application/json, */*';

describe('discovery', () => {
  // What the gateway serves without --runtime-config (betas after 1.22 and alphas off).
  const registry = new ResourceRegistry(enabledResources(builtinResources, ''));
  let base = '';
  let dir = '';
  let close: () => Promise<void> = async () => undefined;

  before(async () => {
    ({ base, dir, close } = await startDiscoveryServer(
      registry,
      defaultVersionInfo({ gitCommit: 'abc123' })
    ));
  });
  after(() => close());

  const getJson = async (
    path: string
  ): Promise<{ status: number; type: string | null; body: Record<string, unknown> }> => {
    const res = await fetch(`${base}${path}`, { headers: { accept } });
    return {
      status: res.status,
      type: res.headers.get('content-type'),
      body: (await res.json()) as Record<string, unknown>,
    };
  };

  const kubectl = async (...args: string[]): Promise<string> => {
    const { stdout } = await run('kubectl', [...args, '--cache-dir', join(dir, 'cache')], {
      env: { ...process.env, KUBECONFIG: join(dir, 'kubeconfig') },
      timeout: 30_000,
    });
    return stdout;
  };

  it('serves /api as plain JSON to a client that does not ask for the aggregated form', async () => {
    const res = await getJson('/api');
    assert.equal(res.status, 200);
    assert.equal(res.type, 'application/json');
    assert.deepEqual(res.body, {
      kind: 'APIVersions',
      versions: ['v1'],
      serverAddressByClientCIDRs: [
        { clientCIDR: '0.0.0.0/0', serverAddress: base.slice('http://'.length) },
      ],
    });
  });

  it('serves /apis and /apis/<group>', async () => {
    const res = await getJson('/apis');
    assert.equal(res.body['kind'], 'APIGroupList');
    assert.equal(res.body['apiVersion'], 'v1');
    const groups = res.body['groups'] as { name: string }[];
    assert.deepEqual(
      groups.map((g) => g.name),
      [
        'apps',
        'coordination.orch.io',
        'events.orch.io',
        'certificates.orch.io',
        'rbac.authorization.orch.io',
        'admissionregistration.orch.io',
        'authorization.orch.io',
        'authentication.orch.io',
        'batch',
        'autoscaling',
        'policy',
        // the platform kinds
        'networking.orch.io',
        'discovery.orch.io',
        'storage.orch.io',
        'scheduling.orch.io',
        'node.orch.io',
        'flowcontrol.apiserver.orch.io',
        // custom resource definitions and aggregated APIs
        'apiextensions.orch.io',
        'apiregistration.orch.io',
      ]
    );
    assert.deepEqual((await getJson('/apis/coordination.orch.io')).body, {
      kind: 'APIGroup',
      apiVersion: 'v1',
      name: 'coordination.orch.io',
      versions: [{ groupVersion: 'coordination.orch.io/v1', version: 'v1' }],
      preferredVersion: { groupVersion: 'coordination.orch.io/v1', version: 'v1' },
    });
  });

  it('serves APIResourceLists with subresources', async () => {
    const core = await getJson('/api/v1');
    assert.equal(core.body['kind'], 'APIResourceList');
    assert.equal(core.body['groupVersion'], 'v1');
    const resources = core.body['resources'] as Record<string, unknown>[];
    const byName = new Map(resources.map((r) => [r['name'], r]));
    assert.deepEqual(byName.get('pods'), {
      name: 'pods',
      singularName: 'pod',
      namespaced: true,
      kind: 'Pod',
      verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
      shortNames: ['po'],
      categories: ['all'],
    });
    assert.deepEqual(byName.get('pods/status'), {
      name: 'pods/status',
      singularName: '',
      namespaced: true,
      kind: 'Pod',
      verbs: ['get', 'patch', 'update'],
    });
    assert.deepEqual(byName.get('namespaces/finalize')?.['verbs'], ['update']);
    // connect subresources name their options kinds, as upstream's discovery does
    const kinds = ['pods/exec', 'pods/proxy', 'pods/log', 'nodes/proxy', 'services/proxy'].map(
      (n) => byName.get(n)?.['kind']
    );
    assert.deepEqual(kinds, [
      'PodExecOptions',
      'PodProxyOptions',
      'Pod',
      'NodeProxyOptions',
      'ServiceProxyOptions',
    ]);
    assert.equal(byName.get('secrets')?.['shortNames'], undefined);
    const apps = await getJson('/apis/apps/v1');
    assert.equal(apps.body['groupVersion'], 'apps/v1');
  });

  it('answers an unknown group or version with a NotFound Status', async () => {
    for (const path of ['/apis/nope.orch.io', '/apis/apps/v2', '/api/v2', '/apis/nope/v1']) {
      const res = await getJson(path);
      assert.equal(res.status, 404, path);
      assert.deepEqual(res.body, {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'the server could not find the requested resource',
        reason: 'NotFound',
        details: {},
        code: 404,
      });
    }
  });

  it('serves /version', async () => {
    const res = await getJson('/version');
    assert.equal(res.body['gitVersion'], 'v1.32.0-orch.0.1.0');
    assert.equal(res.body['gitCommit'], 'abc123');
    assert.equal(res.body['compiler'], 'tsc');
  });

  it('writes as upstream: discovery and 404 one line ending in a newline, /version indented without one', async () => {
    const text = async (path: string) =>
      (await fetch(`${base}${path}`, { headers: { accept } })).text();
    for (const path of ['/api', '/apis', '/api/v1', '/no/such/path']) {
      const body = await text(path);
      assert.ok(body.endsWith('}\n') && !body.slice(0, -1).includes('\n'), `${path}: ${body}`);
    }
    assert.ok(
      (await text('/no/such/path')).startsWith(
        '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure"'
      )
    );
    const version = await text('/version');
    assert.ok(version.startsWith('{\n  "major": ') && version.endsWith('\n}'), version);
  });

  it('orders versions as k8s does', () => {
    assert.deepEqual(
      ['v1alpha1', 'v1beta2', 'v2', 'foo', 'v1', 'v1beta1'].sort(compareKubeVersions),
      ['v2', 'v1', 'v1beta2', 'v1beta1', 'v1alpha1', 'foo']
    );
    const two = new ResourceRegistry([
      { ...builtinResources[0]!, group: 'x.orch.io', version: 'v1beta1' },
      { ...builtinResources[0]!, group: 'x.orch.io', version: 'v1' },
    ]);
    assert.equal(apiGroups(two)[0]?.preferredVersion.version, 'v1');
  });

  it('is enough for kubectl api-resources, api-versions and version', async () => {
    const table = await kubectl('api-resources');
    const [header = '', ...rows] = table.trimEnd().split('\n');
    const cols = ['NAME', 'SHORTNAMES', 'APIVERSION', 'NAMESPACED', 'KIND'].map((c) =>
      header.indexOf(c)
    );
    const parsed = rows.map((row) =>
      cols.map((start, i) => row.slice(start, cols[i + 1] ?? row.length).trim())
    );
    const find = (name: string, apiVersion: string): string[] | undefined =>
      parsed.find((r) => r[0] === name && r[2] === apiVersion);
    assert.deepEqual(find('configmaps', 'v1'), ['configmaps', 'cm', 'v1', 'true', 'ConfigMap']);
    assert.deepEqual(find('pods', 'v1'), ['pods', 'po', 'v1', 'true', 'Pod']);
    assert.deepEqual(find('namespaces', 'v1'), ['namespaces', 'ns', 'v1', 'false', 'Namespace']);
    assert.deepEqual(find('deployments', 'apps/v1'), [
      'deployments',
      'deploy',
      'apps/v1',
      'true',
      'Deployment',
    ]);
    assert.deepEqual(find('leases', 'coordination.orch.io/v1'), [
      'leases',
      '',
      'coordination.orch.io/v1',
      'true',
      'Lease',
    ]);
    // one row per group and resource (kubectl shows the preferred version)
    assert.equal(
      parsed.length,
      new Set(registry.all().map((d) => `${d.group}/${d.resource}`)).size,
      table
    );

    const versions = (await kubectl('api-versions')).trim().split('\n');
    assert.deepEqual(versions, [
      'admissionregistration.orch.io/v1',
      'apiextensions.orch.io/v1',
      'apiregistration.orch.io/v1',
      'apps/v1',
      'authentication.orch.io/v1',
      'authorization.orch.io/v1',
      'autoscaling/v1',
      'autoscaling/v2',
      'batch/v1',
      'certificates.orch.io/v1',
      'coordination.orch.io/v1',
      'discovery.orch.io/v1',
      'events.orch.io/v1',
      'flowcontrol.apiserver.orch.io/v1',
      'networking.orch.io/v1',
      'node.orch.io/v1',
      'policy/v1',
      'rbac.authorization.orch.io/v1',
      'scheduling.orch.io/v1',
      'storage.orch.io/v1',
      'v1',
    ]);

    const version = JSON.parse(await kubectl('version', '-o', 'json')) as {
      serverVersion: { gitVersion: string };
    };
    assert.equal(version.serverVersion.gitVersion, 'v1.32.0-orch.0.1.0');
  });
});
