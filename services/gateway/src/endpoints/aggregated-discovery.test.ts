import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import type { CustomResourceDefinition } from '@orch/apimachinery/apiextensions';
import { builtinResources, ResourceRegistry } from '@orch/apimachinery/registry';
import { enabledResources } from '../resourceconfig/resource-config.js';
import { customResourceDefinitions } from '../registry/apiextensions/customresources/resource-definitions.js';
import { startDiscoveryServer } from './discovery-server.js';
import { apiGroups, defaultVersionInfo } from './discovery.js';
import { aggregatedDiscoveryAsked } from './aggregated-discovery.js';

const run = promisify(execFile);
// What kubectl 1.32 sends to /api and /apis.
const kubectlAccept =
  'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json';

const widgets: CustomResourceDefinition = {
  apiVersion: 'apiextensions.orch.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.example.com' },
  spec: {
    group: 'example.com',
    names: {
      plural: 'widgets',
      singular: 'widget',
      kind: 'Widget',
      listKind: 'WidgetList',
      shortNames: ['wg'],
      categories: ['all'],
    },
    scope: 'Cluster',
    versions: [
      {
        name: 'v1beta1',
        served: true,
        storage: false,
        schema: { openAPIV3Schema: { type: 'object' } },
      },
      {
        name: 'v1',
        served: true,
        storage: true,
        subresources: {
          status: {},
          scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' },
        },
        schema: { openAPIV3Schema: { type: 'object' } },
      },
    ],
  },
  status: {
    conditions: [{ type: 'Established', status: 'True' }],
    acceptedNames: {
      plural: 'widgets',
      singular: 'widget',
      kind: 'Widget',
      listKind: 'WidgetList',
      shortNames: ['wg'],
      categories: ['all'],
    },
  },
} as CustomResourceDefinition;

type Json = Record<string, unknown>;
interface Item {
  metadata: { name?: string };
  versions: { version: string; resources: Json[]; freshness: string }[];
}

describe('aggregated discovery', () => {
  const registry = new ResourceRegistry(enabledResources(builtinResources, ''));
  let base = '';
  let dir = '';
  let close: () => Promise<void> = async () => undefined;

  before(async () => {
    ({ base, dir, close } = await startDiscoveryServer(registry, defaultVersionInfo()));
  });
  after(() => close());

  const get = async (path: string, headers: Record<string, string> = { accept: kubectlAccept }) => {
    const res = await fetch(`${base}${path}`, { headers });
    const text = await res.text();
    return { res, text, body: text === '' ? {} : (JSON.parse(text) as Json) };
  };
  const items = (body: Json): Item[] => body['items'] as Item[];
  const resource = (body: Json, group: string, version: string, name: string): Json | undefined =>
    items(body)
      .find((i) => (i.metadata.name ?? '') === group)
      ?.versions.find((v) => v.version === version)
      ?.resources.find((r) => r['resource'] === name);

  it('picks the aggregated form only when the Accept asks for it before a plain type', () => {
    assert.deepEqual(aggregatedDiscoveryAsked(kubectlAccept), {
      group: 'apidiscovery.k8s.io',
      version: 'v2',
    });
    assert.deepEqual(
      aggregatedDiscoveryAsked(
        'application/vnd.kubernetes.protobuf;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.orch.io;v=v2beta1;as=APIGroupDiscoveryList'
      ),
      { group: 'apidiscovery.orch.io', version: 'v2beta1' }
    );
    for (const legacy of [
      undefined,
      'application/json, */*',
      'application/json,application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList',
      'application/json;g=apidiscovery.k8s.io;v=v3;as=APIGroupDiscoveryList',
      'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList;q=0,application/json',
      'application/json;g=meta.k8s.io;v=v1;as=Table',
    ])
      assert.equal(aggregatedDiscoveryAsked(legacy), undefined, legacy);
  });

  it('answers /apis with every group, in the legacy order, with the upstream headers', async () => {
    const { res, text, body } = await get('/apis');
    assert.equal(res.status, 200);
    assert.equal(
      res.headers.get('content-type'),
      'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList'
    );
    assert.equal(res.headers.get('vary'), 'Accept');
    assert.equal(res.headers.get('cache-control'), 'public');
    assert.match(res.headers.get('etag') ?? '', /^"[0-9A-F]{128}"$/);
    assert.ok(text.endsWith('}\n') && !text.slice(0, -1).includes('\n'));
    assert.ok(
      text.startsWith(
        '{"kind":"APIGroupDiscoveryList","apiVersion":"apidiscovery.k8s.io/v2","metadata":{},"items":[{"metadata":{"name":"apps","creationTimestamp":null},"versions":[{"version":"v1","resources":[{"resource":'
      ),
      text.slice(0, 300)
    );
    assert.deepEqual(
      items(body).map((i) => i.metadata.name),
      apiGroups(registry).map((g) => g.name)
    );
    const autoscaling = items(body).find((i) => i.metadata.name === 'autoscaling');
    assert.deepEqual(
      autoscaling?.versions.map((v) => [v.version, v.freshness]),
      [
        ['v2', 'Current'],
        ['v1', 'Current'],
      ]
    );
    // Field order as the Go structs marshal them.
    assert.equal(
      JSON.stringify(resource(body, 'apps', 'v1', 'deployments')),
      JSON.stringify({
        resource: 'deployments',
        responseKind: { group: '', version: '', kind: 'Deployment' },
        scope: 'Namespaced',
        singularResource: 'deployment',
        verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
        shortNames: ['deploy'],
        categories: ['all'],
        subresources: [
          {
            subresource: 'scale',
            responseKind: { group: 'autoscaling', version: 'v1', kind: 'Scale' },
            verbs: ['get', 'patch', 'update'],
          },
          {
            subresource: 'status',
            responseKind: { group: '', version: '', kind: 'Deployment' },
            verbs: ['get', 'patch', 'update'],
          },
        ],
      })
    );
    const crb = resource(body, 'rbac.authorization.orch.io', 'v1', 'clusterrolebindings');
    assert.equal(crb?.['scope'], 'Cluster');
    assert.equal(crb?.['subresources'], undefined);
  });

  it('answers /api with the core group alone, and v2beta1 or orch names when asked', async () => {
    const { res, body } = await get('/api', {
      accept: 'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList',
    });
    assert.equal(
      res.headers.get('content-type'),
      'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList'
    );
    assert.equal(body['apiVersion'], 'apidiscovery.k8s.io/v2beta1');
    assert.equal(items(body).length, 1);
    assert.deepEqual(items(body)[0]?.metadata, { creationTimestamp: null });
    const podSubresources = resource(body, '', 'v1', 'pods')?.['subresources'] as Json[];
    assert.deepEqual(
      podSubresources.find((s) => s['subresource'] === 'status'),
      {
        subresource: 'status',
        responseKind: { group: '', version: '', kind: 'Pod' },
        verbs: ['get', 'patch', 'update'],
      }
    );
    // a connect subresource names its options kind, as upstream's discovery does
    assert.deepEqual(podSubresources.find((s) => s['subresource'] === 'exec')?.['responseKind'], {
      group: '',
      version: '',
      kind: 'PodExecOptions',
    });
    const orch = await get('/apis', {
      accept: 'application/json;g=apidiscovery.orch.io;v=v2;as=APIGroupDiscoveryList',
    });
    assert.equal(orch.body['apiVersion'], 'apidiscovery.orch.io/v2');
    // A plain Accept still gets the legacy document.
    const legacy = await get('/api', { accept: 'application/json' });
    assert.equal(legacy.body['kind'], 'APIVersions');
    assert.equal(legacy.res.headers.get('etag'), null);
  });

  it('answers 304 to a matching If-None-Match and changes the ETag as custom resources come and go', async () => {
    const first = await get('/apis');
    const etag = first.res.headers.get('etag') ?? '';
    const again = await get('/apis', { accept: kubectlAccept, 'if-none-match': etag });
    assert.equal(again.res.status, 304);
    assert.equal(again.text, '');
    assert.equal(again.res.headers.get('etag'), etag);
    assert.equal(
      (await get('/apis', { accept: kubectlAccept, 'if-none-match': '"x"' })).res.status,
      200
    );

    const defs = customResourceDefinitions(widgets);
    for (const def of defs) registry.add(def);
    try {
      const added = await get('/apis', { accept: kubectlAccept, 'if-none-match': etag });
      assert.equal(added.res.status, 200);
      assert.notEqual(added.res.headers.get('etag'), etag);
      const group = items(added.body).find((i) => i.metadata.name === 'example.com');
      assert.deepEqual(
        group?.versions.map((v) => v.version),
        ['v1', 'v1beta1']
      );
      assert.equal(
        JSON.stringify(resource(added.body, 'example.com', 'v1', 'widgets')),
        JSON.stringify({
          resource: 'widgets',
          responseKind: { group: 'example.com', version: 'v1', kind: 'Widget' },
          scope: 'Cluster',
          singularResource: 'widget',
          verbs: [
            'create',
            'delete',
            'deletecollection',
            'get',
            'list',
            'patch',
            'update',
            'watch',
          ],
          shortNames: ['wg'],
          categories: ['all'],
          subresources: [
            {
              subresource: 'status',
              responseKind: { group: 'example.com', version: 'v1', kind: 'Widget' },
              verbs: ['get', 'patch', 'update'],
            },
            {
              subresource: 'scale',
              responseKind: { group: 'autoscaling', version: 'v1', kind: 'Scale' },
              verbs: ['get', 'patch', 'update'],
            },
          ],
        })
      );
    } finally {
      for (const def of defs) registry.remove(def.group, def.version, def.resource);
    }
    const removed = await get('/apis', { accept: kubectlAccept, 'if-none-match': etag });
    assert.equal(removed.res.status, 304, 'the same document, so the same ETag');
  });

  it('is what kubectl reads: /api and /apis only, no request per group version', async () => {
    const { stdout, stderr } = await run(
      'kubectl',
      ['api-resources', '-v=8', '--cache-dir', join(dir, 'aggregated-cache')],
      { env: { ...process.env, KUBECONFIG: join(dir, 'kubeconfig') }, timeout: 30_000 }
    );
    const gets = [...stderr.matchAll(/"GET ([^ ]+)"|GET (http\S+)/g)].map(
      (m) => new URL(m[1] ?? m[2] ?? '').pathname
    );
    assert.deepEqual([...new Set(gets)].sort(), ['/api', '/apis'], stderr);
    assert.match(
      stderr,
      /Response Headers:[\s\S]*Content-Type: application\/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList/
    );
    assert.match(stdout, /^deployments +deploy +apps\/v1 +true +Deployment$/m);
  });
});
