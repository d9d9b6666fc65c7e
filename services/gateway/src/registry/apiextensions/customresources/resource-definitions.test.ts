// The defs a CRD serves (upstream crdHandler's serving info and the discovery controller) as a
// table, and the registry's remove/replace with the generation discovery and OpenAPI key on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CustomResourceDefinition } from '@orch/apimachinery/apiextensions';
import { ResourceRegistry } from '@orch/apimachinery/registry';
import { hasDefaults } from './custom-resource-store.js';
import { customResourceDefinitions } from './resource-definitions.js';

const established = { type: 'Established', status: 'True' } as const;

function crd(
  over: Partial<CustomResourceDefinition['spec']> = {},
  status?: object
): CustomResourceDefinition {
  return {
    metadata: { name: 'widgets.example.com' },
    spec: {
      group: 'example.com',
      names: { plural: 'widgets', kind: 'Widget' },
      scope: 'Namespaced',
      versions: [{ name: 'v1', served: true, storage: true }],
      ...over,
    },
    status: status ?? { conditions: [established] },
  };
}

const rows: { name: string; crd: CustomResourceDefinition; want: object[] }[] = [
  {
    name: 'not Established: nothing served',
    crd: crd({}, { conditions: [{ type: 'Established', status: 'False' }] }),
    want: [],
  },
  {
    name: 'defaults: listKind <Kind>List, singular the lower-cased kind, all verbs',
    crd: crd(),
    want: [
      {
        group: 'example.com',
        version: 'v1',
        resource: 'widgets',
        kind: 'Widget',
        listKind: 'WidgetList',
        singular: 'widget',
        namespaced: true,
      },
    ],
  },
  {
    name: 'accepted names win over requested ones; Cluster scope',
    crd: crd(
      { scope: 'Cluster', names: { plural: 'widgets', kind: 'Widget', shortNames: ['wd'] } },
      {
        conditions: [established],
        acceptedNames: {
          plural: 'widgets',
          kind: 'Widget',
          singular: 'widget',
          categories: ['all'],
        },
      }
    ),
    want: [{ resource: 'widgets', namespaced: false, categories: ['all'], shortNames: undefined }],
  },
  {
    name: 'one def per served version; storageVersion on the others; subresources and selectable fields per version',
    crd: crd({
      versions: [
        { name: 'v1alpha1', served: false, storage: false },
        {
          name: 'v1beta1',
          served: true,
          storage: false,
          subresources: {
            status: {},
            scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' },
          },
        },
        {
          name: 'v1',
          served: true,
          storage: true,
          selectableFields: [{ jsonPath: '.spec.color' }],
        },
      ],
    }),
    want: [
      { version: 'v1beta1', storageVersion: 'v1', subresources: ['status', 'scale'] },
      { version: 'v1', storageVersion: undefined, selectableFields: ['spec.color'] },
    ],
  },
];

for (const row of rows) {
  test(`customResourceDefinitions: ${row.name}`, () => {
    const defs = customResourceDefinitions(row.crd);
    assert.equal(defs.length, row.want.length);
    defs.forEach((d, i) => {
      const want = row.want[i] as Record<string, unknown>;
      for (const [k, v] of Object.entries(want)) assert.deepEqual((d as any)[k], v, k);
      assert.equal(d.customResource?.crd, row.crd);
      assert.equal(d.customResource?.version.name, d.version);
      assert.equal(d.verbs.length, 8);
    });
  });
}

test('ResourceRegistry: add, replace and remove raise the generation', () => {
  const [def] = customResourceDefinitions(crd());
  const registry = new ResourceRegistry([]);
  const g0 = registry.generation;
  registry.add(def!);
  assert.ok(registry.generation > g0);
  const g1 = registry.generation;
  const next = { ...def!, shortNames: ['w'] };
  registry.replace(next);
  assert.ok(registry.generation > g1);
  assert.equal(registry.lookup('example.com', 'v1', 'widgets'), next);
  assert.deepEqual(registry.all(), [next]);
  const g2 = registry.generation;
  assert.equal(registry.remove('example.com', 'v1', 'widgets'), next);
  assert.ok(registry.generation > g2);
  assert.equal(registry.lookup('example.com', 'v1', 'widgets'), undefined);
  assert.deepEqual(registry.groupVersions(), []);
  const g3 = registry.generation;
  assert.equal(registry.remove('example.com', 'v1', 'widgets'), undefined);
  assert.equal(registry.generation, g3);
});

test('hasDefaults finds a default at any depth', () => {
  assert.equal(hasDefaults(undefined), false);
  assert.equal(hasDefaults({ type: 'object', properties: { a: { type: 'string' } } }), false);
  assert.equal(
    hasDefaults({
      type: 'object',
      properties: {
        a: {
          type: 'array',
          items: { type: 'object', properties: { b: { type: 'integer', default: 1 } } },
        },
      },
    }),
    true
  );
  assert.equal(
    hasDefaults({ type: 'object', additionalProperties: { type: 'string', default: 'x' } }),
    true
  );
});
