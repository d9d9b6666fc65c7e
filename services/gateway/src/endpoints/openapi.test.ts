import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { startDiscoveryServer } from './discovery-server.js';
import { builtinResources, ResourceRegistry } from '@orch/apimachinery/registry';
import { enabledResources } from '../resourceconfig/resource-config.js';
import { defaultVersionInfo } from './discovery.js';
import { mergeV2, openApiDocuments } from './install-openapi.js';
import { definitionName } from './openapi.js';

const run = promisify(execFile);
const protobufAccept = 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf';

type Doc = Record<string, any>;

describe('openapi', () => {
  // What the gateway serves without --runtime-config (betas after 1.22 and alphas off).
  const registry = new ResourceRegistry(enabledResources(builtinResources, ''));
  let base = '';
  let dir = '';
  let close: () => Promise<void> = async () => undefined;

  before(async () => {
    ({ base, dir, close } = await startDiscoveryServer(registry, defaultVersionInfo()));
  });
  after(() => close());

  const kubectl = async (...args: string[]): Promise<string> => {
    const { stdout } = await run('kubectl', [...args, '--cache-dir', join(dir, 'cache')], {
      env: { ...process.env, KUBECONFIG: join(dir, 'kubeconfig') },
      timeout: 30_000,
    });
    return stdout;
  };

  it('names definitions after the group', () => {
    assert.equal(
      definitionName({ group: '', version: 'v1', kind: 'ConfigMap' }),
      'io.orch.api.core.v1.ConfigMap'
    );
    assert.equal(
      definitionName({ group: 'apps', version: 'v1', kind: 'Deployment' }),
      'io.orch.api.apps.v1.Deployment'
    );
    assert.equal(
      definitionName({ group: 'coordination.orch.io', version: 'v1', kind: 'Lease' }),
      'io.orch.api.coordination.v1.Lease'
    );
    assert.equal(
      definitionName({ group: 'stable.example.com', version: 'v1', kind: 'Cron' }),
      'com.example.stable.v1.Cron'
    );
  });

  it('generates paths, operations and kind schemas from the schema model', () => {
    const { v2 } = openApiDocuments(registry) as { v2: Doc };
    const ns = v2['paths']['/api/v1/namespaces/{namespace}/configmaps'];
    assert.equal(ns.get.operationId, 'listCoreV1NamespacedConfigMap');
    assert.equal(ns.get['x-kubernetes-action'], 'list');
    assert.deepEqual(ns.get['x-kubernetes-group-version-kind'], {
      group: '',
      version: 'v1',
      kind: 'ConfigMap',
    });
    assert.deepEqual(
      ns.get.parameters.map((p: Doc) => p['name']),
      [
        'allowWatchBookmarks',
        'continue',
        'fieldSelector',
        'labelSelector',
        'limit',
        'resourceVersion',
        'resourceVersionMatch',
        'timeoutSeconds',
        'watch',
      ]
    );
    assert.equal(ns.post.operationId, 'createCoreV1NamespacedConfigMap');
    assert.equal(ns.delete.operationId, 'deleteCollectionCoreV1NamespacedConfigMap');
    assert.equal(
      v2['paths']['/api/v1/configmaps'].get.operationId,
      'listCoreV1ConfigMapForAllNamespaces'
    );
    const pod = v2['paths']['/api/v1/namespaces/{namespace}/pods/{name}'];
    assert.deepEqual(Object.keys(pod).sort(), ['delete', 'get', 'parameters', 'patch', 'put']);
    assert.equal(pod.put.operationId, 'replaceCoreV1NamespacedPod');
    assert.equal(
      v2['paths']['/api/v1/namespaces/{namespace}/pods/{name}/status'].patch.operationId,
      'patchCoreV1NamespacedPodStatus'
    );
    assert.deepEqual(Object.keys(v2['paths']['/api/v1/namespaces/{name}/finalize']).sort(), [
      'parameters',
      'put',
    ]);
    assert.equal(v2['paths']['/api/v1/nodes/{name}'].get.operationId, 'readCoreV1Node');
    assert.equal(
      v2['paths']['/apis/coordination.orch.io/v1/namespaces/{namespace}/leases/{name}'].patch
        .operationId,
      'patchCoordinationV1NamespacedLease'
    );
    const names = new Set<string>();
    for (const item of Object.values(v2['paths']) as Doc[]) {
      for (const op of Object.values(item))
        for (const p of Array.isArray(op) ? op : (op.parameters ?? [])) names.add(p.name);
    }
    assert.ok(names.has('fieldValidation') && names.has('fieldManager'), [...names].join());
    assert.deepEqual(
      pod.patch.parameters.map((p: Doc) => p['name']),
      ['body', 'dryRun', 'fieldManager', 'fieldValidation', 'force']
    );
    assert.ok(pod.patch.consumes.includes('application/apply-patch+yaml'), 'server-side apply');

    const cm = v2['definitions']['io.orch.api.core.v1.ConfigMap'];
    assert.deepEqual(Object.keys(cm).sort(), [
      'description',
      'properties',
      'type',
      'x-kubernetes-group-version-kind',
    ]);
    assert.deepEqual(Object.keys(cm.properties), [
      'apiVersion',
      'binaryData',
      'data',
      'immutable',
      'kind',
      'metadata',
    ]);
    assert.deepEqual(cm.properties.data, {
      description:
        "Data contains the configuration data. Each key must consist of alphanumeric characters, '-', '_' or '.'.",
      type: 'object',
      additionalProperties: { type: 'string' },
    });
    const spec = v2['definitions']['io.orch.api.core.v1.PodSpec'];
    assert.deepEqual(spec.required, ['containers']);
    assert.equal(
      spec.properties.containers.items.$ref,
      '#/definitions/io.orch.api.core.v1.Container'
    );
    assert.equal(spec.properties.containers['x-kubernetes-patch-merge-key'], 'name');
    assert.equal(spec.properties.containers['x-kubernetes-patch-strategy'], 'merge');
    assert.equal(spec.properties.containers['x-kubernetes-list-type'], 'map');
    assert.deepEqual(spec.properties.containers['x-kubernetes-list-map-keys'], ['name']);
    assert.equal(spec.properties.nodeSelector['x-kubernetes-map-type'], 'atomic');
    assert.equal(spec.properties.restartPolicy.default, 'Always');
    assert.equal(spec.properties.terminationGracePeriodSeconds.default, 30);
    assert.equal(
      v2['definitions']['io.orch.api.core.v1.ContainerPort'].properties.protocol.default,
      'TCP'
    );
    const port = v2['definitions']['io.orch.api.core.v1.HTTPGetAction'].properties.port;
    assert.equal(port.$ref, '#/definitions/io.orch.apimachinery.pkg.util.intstr.IntOrString');
    assert.deepEqual(
      v2['definitions']['io.orch.apimachinery.pkg.util.intstr.IntOrString'].format,
      'int-or-string'
    );
    assert.equal(
      v2['definitions']['io.orch.apimachinery.pkg.apis.meta.v1.Time'].format,
      'date-time'
    );
    assert.ok(
      v2['definitions']['io.orch.apimachinery.pkg.apis.meta.v1.ObjectMeta'].properties.labels
    );
    assert.deepEqual(cm['x-kubernetes-group-version-kind'], [
      { group: '', kind: 'ConfigMap', version: 'v1' },
    ]);
    assert.equal(
      v2['definitions']['io.orch.api.apps.v1.DeploymentList'].properties.items.items.$ref,
      '#/definitions/io.orch.api.apps.v1.Deployment'
    );
    assert.ok(v2['definitions']['io.orch.apimachinery.pkg.apis.meta.v1.Status']);
  });

  it('lists the schemas of the virtual kinds (reviews), with no list kinds for them', () => {
    const { v2 } = openApiDocuments(registry) as { v2: Doc };
    const defs = v2['definitions'] as Doc;
    for (const [group, version, kind] of [
      ['authentication', 'v1', 'TokenReview'],
      ['authorization', 'v1', 'SubjectAccessReview'],
      ['authorization', 'v1', 'SelfSubjectAccessReview'],
      ['authorization', 'v1', 'LocalSubjectAccessReview'],
      ['authorization', 'v1', 'SelfSubjectRulesReview'],
    ]) {
      const d = defs[`io.orch.api.${group}.${version}.${kind}`];
      assert.ok(d?.properties?.spec?.$ref, `${group}/${version} ${kind}`);
      assert.deepEqual(d['x-kubernetes-group-version-kind'], [
        { group: `${group}.orch.io`, kind, version },
      ]);
      assert.equal(defs[`io.orch.api.${group}.${version}.${kind}List`], undefined);
    }
    const attrs = defs['io.orch.api.authorization.v1.ResourceAttributes'].properties;
    assert.deepEqual(Object.keys(attrs), [
      'group',
      'name',
      'namespace',
      'resource',
      'subresource',
      'verb',
      'version',
    ]);
    assert.deepEqual(defs['io.orch.api.authentication.v1.ExtraValue'].items, { type: 'string' });
    assert.equal(
      v2['paths']['/apis/authorization.orch.io/v1/subjectaccessreviews'].post.operationId,
      'createAuthorizationV1SubjectAccessReview'
    );
  });

  it('serves v2 as JSON or protobuf, with an ETag', async () => {
    const json = await fetch(`${base}/openapi/v2`, { headers: { accept: 'application/json' } });
    assert.equal(json.headers.get('content-type'), 'application/json');
    const doc = (await json.json()) as Doc;
    assert.equal(doc['swagger'], '2.0');
    const etag = json.headers.get('etag');
    assert.match(etag ?? '', /^"[0-9A-F]{128}"$/);
    const again = await fetch(`${base}/openapi/v2`, {
      headers: { accept: 'application/json', 'if-none-match': etag ?? '' },
    });
    assert.equal(again.status, 304);

    const pb = await fetch(`${base}/openapi/v2`, {
      headers: { accept: `${protobufAccept}, application/json` },
    });
    assert.equal(
      pb.headers.get('content-type'),
      'application/com.github.proto-openapi.spec.v2.v1.0+protobuf'
    );
    const bytes = Buffer.from(await pb.arrayBuffer());
    assert.deepEqual([...bytes.subarray(0, 5)], [0x0a, 3, ...Buffer.from('2.0').subarray(0, 3)]); // field 1 "2.0"
    assert.notEqual(pb.headers.get('etag'), etag);
    assert.equal(
      (await fetch(`${base}/openapi/v2`, { headers: { accept: 'text/html' } })).status,
      406
    );
  });

  it('serves v3 per group version, addressed by hash', async () => {
    const root = (await (await fetch(`${base}/openapi/v3`)).json()) as Doc;
    assert.deepEqual(Object.keys(root['paths']), [
      'api/v1',
      'apis/apps/v1',
      'apis/coordination.orch.io/v1',
      'apis/events.orch.io/v1',
      'apis/certificates.orch.io/v1',
      'apis/rbac.authorization.orch.io/v1',
      'apis/admissionregistration.orch.io/v1',
      'apis/authorization.orch.io/v1',
      'apis/authentication.orch.io/v1',
      'apis/batch/v1',
      'apis/autoscaling/v2',
      'apis/autoscaling/v1',
      'apis/policy/v1',
      // the platform kinds
      'apis/networking.orch.io/v1',
      'apis/discovery.orch.io/v1',
      'apis/storage.orch.io/v1',
      'apis/scheduling.orch.io/v1',
      'apis/node.orch.io/v1',
      'apis/flowcontrol.apiserver.orch.io/v1',
      // custom resource definitions
      'apis/apiextensions.orch.io/v1',
      'apis/apiregistration.orch.io/v1',
    ]);
    const url: string = root['paths']['apis/apps/v1'].serverRelativeURL;
    assert.match(url, /^\/openapi\/v3\/apis\/apps\/v1\?hash=[0-9A-F]{128}$/);
    const res = await fetch(`${base}${url}`);
    assert.equal(res.headers.get('cache-control'), 'public, immutable');
    const doc = (await res.json()) as Doc;
    assert.equal(doc['openapi'], '3.0.0');
    assert.ok(Object.keys(doc['paths']).every((p) => p.startsWith('/apis/apps/v1/')));
    const patch = doc['paths']['/apis/apps/v1/namespaces/{namespace}/deployments/{name}'].patch;
    assert.deepEqual(Object.keys(patch.requestBody.content), [
      'application/json-patch+json',
      'application/merge-patch+json',
      'application/strategic-merge-patch+json',
      'application/apply-patch+yaml',
    ]);
    assert.equal(
      patch.responses['200'].content['application/json'].schema.$ref,
      '#/components/schemas/io.orch.api.apps.v1.Deployment'
    );
    assert.ok(doc['components']['schemas']['io.orch.api.apps.v1.Deployment']);
    assert.equal(doc['components']['schemas']['io.orch.api.core.v1.Pod'], undefined);
    // References with a description become allOf; what a kind reaches in other groups is included.
    const template =
      doc['components']['schemas']['io.orch.api.apps.v1.DeploymentSpec'].properties.template;
    assert.deepEqual(template.allOf, [
      { $ref: '#/components/schemas/io.orch.api.core.v1.PodTemplateSpec' },
    ]);
    assert.match(template.description, /Template describes the pods/);
    assert.ok(doc['components']['schemas']['io.orch.api.core.v1.Container'].properties.image);

    const stale = await fetch(`${base}/openapi/v3/apis/apps/v1?hash=0`, { redirect: 'manual' });
    assert.equal(stale.status, 301);
    assert.equal(stale.headers.get('location'), url);
    assert.equal((await fetch(`${base}/openapi/v3/apis/nope/v1`)).status, 404);
  });

  it('lets kubectl validate any fields client-side (create --dry-run=client --validate=strict)', async () => {
    const manifest = join(dir, 'objects.yaml');
    await writeFile(
      manifest,
      [
        'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: one}\ndata: {a: b}\nnotAField: 1\n',
        'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: two}\nspec: {replicas: 1, anything: {x: 1}}\n',
        'apiVersion: coordination.orch.io/v1\nkind: Lease\nmetadata: {name: three}\nspec: {holderIdentity: me}\n',
      ].join('---\n')
    );
    const out = await kubectl(
      'create',
      '-f',
      manifest,
      '--dry-run=client',
      '--validate=strict',
      '-o',
      'name'
    );
    assert.deepEqual(out.trim().split('\n'), [
      'configmap/one',
      'deployment.apps/two',
      'lease.coordination.orch.io/three',
    ]);
    assert.match(await kubectl('explain', 'leases'), /KIND:\s+Lease/);
  });
});

it('mergeV2: an extension server adds its paths and definitions; a name the gateway defines stays its own', () => {
  const own = {
    swagger: '2.0',
    paths: { '/api/v1/pods': { get: { operationId: 'own' } } },
    definitions: { Shared: { description: 'own' } },
  };
  const merged = mergeV2(own, [
    {
      paths: {
        '/api/v1/pods': { get: { operationId: 'theirs' } },
        '/apis/m/v1/nodes': { get: { operationId: 'listNodes' } },
      },
      definitions: { Shared: { description: 'theirs' }, NodeMetrics: { type: 'object' } },
    },
  ]);
  assert.deepEqual(merged, {
    swagger: '2.0',
    paths: {
      '/api/v1/pods': { get: { operationId: 'own' } },
      '/apis/m/v1/nodes': { get: { operationId: 'listNodes' } },
    },
    definitions: { Shared: { description: 'own' }, NodeMetrics: { type: 'object' } },
  });
  assert.deepEqual(
    own.definitions,
    { Shared: { description: 'own' } },
    'the own document is not changed'
  );
});
