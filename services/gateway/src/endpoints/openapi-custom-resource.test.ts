import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import type { CustomResourceDefinition } from '@orch/apimachinery/apiextensions';
import { ResourceRegistry, allVerbs, builtinResources } from '@orch/apimachinery/registry';
import type { ResourceDefinition } from '@orch/apimachinery/registry';
import { enabledResources } from '../resourceconfig/resource-config.js';
import { startDiscoveryServer } from './discovery-server.js';
import { defaultVersionInfo } from './discovery.js';

const run = promisify(execFile);

function customResourceDef(crd: CustomResourceDefinition): ResourceDefinition {
  const version = crd.spec.versions[0]!;
  const { names } = crd.spec;
  return {
    group: crd.spec.group,
    version: version.name,
    resource: names.plural,
    kind: names.kind,
    listKind: names.listKind ?? `${names.kind}List`,
    singular: names.singular ?? names.kind.toLowerCase(),
    namespaced: crd.spec.scope === 'Namespaced',
    verbs: allVerbs,
    ...(names.shortNames ? { shortNames: names.shortNames } : {}),
    subresources: [
      ...(version.subresources?.status ? ['status'] : []),
      ...(version.subresources?.scale ? ['scale'] : []),
    ],
    customResource: { crd, version },
  };
}

const cronTabs: CustomResourceDefinition = {
  apiVersion: 'apiextensions.orch.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'crontabs.stable.example.com' },
  spec: {
    group: 'stable.example.com',
    names: {
      plural: 'crontabs',
      singular: 'crontab',
      kind: 'CronTab',
      listKind: 'CronTabList',
      shortNames: ['ct'],
    },
    scope: 'Namespaced',
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        subresources: {
          status: {},
          scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' },
        },
        schema: {
          openAPIV3Schema: {
            type: 'object',
            description: 'CronTab runs a command on a schedule.',
            properties: {
              spec: {
                type: 'object',
                description: 'What to run and when.',
                'x-kubernetes-validations': [
                  { rule: 'self.replicas >= 0', message: 'never negative' },
                ],
                properties: {
                  cronSpec: { type: 'string', description: 'The schedule in cron format.' },
                  replicas: { type: 'integer', default: 1, description: 'How many run at once.' },
                  port: { 'x-kubernetes-int-or-string': true, description: 'A port.' },
                  note: { type: 'string', nullable: true },
                  ports: {
                    type: 'array',
                    'x-kubernetes-list-type': 'map',
                    'x-kubernetes-list-map-keys': ['name'],
                    items: {
                      type: 'object',
                      required: ['name'],
                      properties: { name: { type: 'string' }, port: { type: 'integer' } },
                    },
                  },
                  extra: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
                },
              },
              status: { type: 'object', properties: { phase: { type: 'string' } } },
            },
          },
        },
      },
    ],
  },
};

const widgets: CustomResourceDefinition = {
  metadata: { name: 'widgets.example.org' },
  spec: {
    group: 'example.org',
    names: { plural: 'widgets', kind: 'Widget' },
    scope: 'Cluster',
    versions: [{ name: 'v1alpha1', served: true, storage: true }],
  },
};

describe('openapi of custom resources', () => {
  const registry = new ResourceRegistry([
    ...enabledResources(builtinResources, ''),
    customResourceDef(cronTabs),
  ]);
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
  const getJson = async (path: string): Promise<any> => {
    const res = await fetch(`${base}${path}`);
    assert.equal(res.status, 200, path);
    return res.json();
  };

  it('v2 holds the kind, its list and ObjectMeta, stripped for Swagger 2.0', async () => {
    const doc = await getJson('/openapi/v2');
    const kind = doc.definitions['com.example.stable.v1.CronTab'];
    assert.equal(kind.description, 'CronTab runs a command on a schedule.');
    assert.deepEqual(kind['x-kubernetes-group-version-kind'], [
      { group: 'stable.example.com', kind: 'CronTab', version: 'v1' },
    ]);
    assert.equal(
      kind.properties.metadata.$ref,
      '#/definitions/io.orch.apimachinery.pkg.apis.meta.v1.ObjectMeta'
    );
    assert.ok(doc.definitions['io.orch.apimachinery.pkg.apis.meta.v1.ObjectMeta']);
    assert.deepEqual(kind.properties.spec.properties.note, {});
    assert.equal(kind.properties.spec.properties.replicas.default, undefined);
    const list = doc.definitions['com.example.stable.v1.CronTabList'];
    assert.equal(list.properties.items.items.$ref, '#/definitions/com.example.stable.v1.CronTab');
    assert.ok(
      doc.paths['/apis/stable.example.com/v1/namespaces/{namespace}/crontabs/{name}/status']
    );
  });

  it('v3 of the group version holds the kind as the CRD wrote it', async () => {
    const doc = await getJson('/openapi/v3/apis/stable.example.com/v1');
    const kind = doc.components.schemas['com.example.stable.v1.CronTab'];
    const spec = kind.properties.spec;
    assert.equal(spec.properties.note.nullable, true);
    assert.equal(spec.properties.replicas.default, 1);
    assert.deepEqual(spec.properties.port.anyOf, [{ type: 'integer' }, { type: 'string' }]);
    assert.deepEqual(kind.properties.metadata.allOf, [
      { $ref: '#/components/schemas/io.orch.apimachinery.pkg.apis.meta.v1.ObjectMeta' },
    ]);
    assert.ok(doc.components.schemas['io.orch.apimachinery.pkg.apis.meta.v1.ObjectMeta']);
    assert.ok(doc.components.schemas['io.orch.apimachinery.pkg.apis.meta.v1.ListMeta']);
    const listRef =
      doc.components.schemas['com.example.stable.v1.CronTabList'].properties.items.items;
    assert.deepEqual(listRef, { $ref: '#/components/schemas/com.example.stable.v1.CronTab' });
  });

  it('kubectl explain prints the descriptions from v3 and from v2', async () => {
    const v3 = await kubectl('explain', 'crontabs.spec');
    assert.match(v3, /KIND:\s+CronTab/);
    assert.match(v3, /cronSpec\s+<string>\s+The schedule in cron format\./);
    assert.match(v3, /ports\s+<\[\]Object>/);
    const v2 = await kubectl('explain', 'ct.spec.replicas', '--output', 'plaintext-openapiv2');
    assert.match(v2, /FIELD:\s+replicas <integer>/);
    assert.match(v2, /How many run at once\./);
  });

  it('kubectl validates a custom resource against it (create --dry-run=client --validate=strict)', async () => {
    const manifest = join(dir, 'crontab.yaml');
    await writeFile(
      manifest,
      'apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {name: one}\nspec: {cronSpec: "* * * * */5", replicas: 2, port: http, note: null, ports: [{name: a, port: 1}], extra: {any: [1]}}\n'
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
    assert.equal(out.trim(), 'crontab.stable.example.com/one');
  });

  it('rebuilds the documents when a definition is added: a new group version, a new v3 index hash', async () => {
    const rootBefore = await fetch(`${base}/openapi/v3`);
    const etagBefore = rootBefore.headers.get('etag');
    const pathsBefore = ((await rootBefore.json()) as any).paths;
    assert.equal(pathsBefore['apis/example.org/v1alpha1'], undefined);
    const v2Before = (await fetch(`${base}/openapi/v2`)).headers.get('etag');

    registry.add(customResourceDef(widgets));

    const rootAfter = await fetch(`${base}/openapi/v3`);
    assert.notEqual(rootAfter.headers.get('etag'), etagBefore);
    const pathsAfter = ((await rootAfter.json()) as any).paths;
    assert.match(pathsAfter['apis/example.org/v1alpha1'].serverRelativeURL, /\?hash=[0-9A-F]+$/);
    assert.equal(
      pathsAfter['apis/stable.example.com/v1'].serverRelativeURL,
      pathsBefore['apis/stable.example.com/v1'].serverRelativeURL
    );
    assert.notEqual((await fetch(`${base}/openapi/v2`)).headers.get('etag'), v2Before);
    const doc = await getJson(pathsAfter['apis/example.org/v1alpha1'].serverRelativeURL);
    // A version without a schema: an open object (upstream: kubectl must not refuse any field).
    assert.deepEqual(doc.components.schemas['org.example.v1alpha1.Widget'].type, 'object');
    assert.equal(doc.components.schemas['org.example.v1alpha1.Widget'].properties, undefined);
  });
});
