// tableOf for a def with customResource: the CRD version's printer columns; a built-in def
// keeps the schema model's.
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import type { CustomResourceDefinition } from '@orch/apimachinery/apiextensions';
import { allVerbs, builtinResources } from '@orch/apimachinery/registry';
import type { ResourceDefinition } from '@orch/apimachinery/registry';
import type { HttpRequest } from '../http/handler.js';
import { tableOf } from './table.js';

function request(query: string): HttpRequest {
  return Object.assign(Readable.from([]), { url: `/apis/x?${query}`, headers: {} }) as any;
}

const crd: CustomResourceDefinition = {
  metadata: { name: 'crontabs.stable.example.com' },
  spec: {
    group: 'stable.example.com',
    names: { plural: 'crontabs', kind: 'CronTab', listKind: 'CronTabList' },
    scope: 'Namespaced',
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        additionalPrinterColumns: [
          { name: 'Spec', type: 'string', jsonPath: '.spec.cronSpec' },
          { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas', priority: 1 },
        ],
      },
      { name: 'v2', served: true, storage: false },
    ],
  },
};

function defOf(version: number): ResourceDefinition {
  const v = crd.spec.versions[version]!;
  return {
    group: 'stable.example.com',
    version: v.name,
    resource: 'crontabs',
    kind: 'CronTab',
    listKind: 'CronTabList',
    singular: 'crontab',
    namespaced: true,
    verbs: allVerbs,
    customResource: { crd, version: v },
  };
}

const cronTab = (name: string) => ({
  apiVersion: 'stable.example.com/v1',
  kind: 'CronTab',
  metadata: { name, resourceVersion: '7', creationTimestamp: new Date().toISOString() },
  spec: { cronSpec: '* * * * *', replicas: 2 },
});

describe('tableOf a custom resource', () => {
  it("an object: Name and the version's columns", () => {
    const t = tableOf(request('includeObject=None'), defOf(0), cronTab('a'), 'meta.k8s.io');
    assert.deepEqual(
      t.columnDefinitions.map((c) => c.name),
      ['Name', 'Spec', 'Replicas']
    );
    assert.deepEqual(t.rows[0]?.cells, ['a', '* * * * *', 2]);
    assert.deepEqual(t.metadata, { resourceVersion: '7' });
    assert.equal(t.apiVersion, 'meta.k8s.io/v1');
  });

  it('a list: a row per item with the list metadata, partial metadata by default', () => {
    const list = {
      apiVersion: 'stable.example.com/v1',
      kind: 'CronTabList',
      metadata: { resourceVersion: '9' },
      items: [cronTab('a'), cronTab('b')],
    };
    const t = tableOf(request(''), defOf(0), list, 'meta.orch.io');
    assert.deepEqual(
      t.rows.map((r) => r.cells[0]),
      ['a', 'b']
    );
    assert.equal((t.rows[0]?.object as any).kind, 'PartialObjectMetadata');
    assert.deepEqual(t.metadata, { resourceVersion: '9' });
  });

  it('a version without columns: Name and Age', () => {
    const t = tableOf(request('includeObject=None'), defOf(1), cronTab('a'), 'meta.k8s.io');
    assert.deepEqual(
      t.columnDefinitions.map((c) => c.name),
      ['Name', 'Age']
    );
    assert.match(String(t.rows[0]?.cells[1]), /^\d+s$/);
  });

  it('a built-in def keeps the schema model columns', () => {
    const cm = builtinResources.find((d) => d.resource === 'configmaps' && d.group === '')!;
    const t = tableOf(
      request('includeObject=None'),
      cm,
      { kind: 'ConfigMap', metadata: { name: 'c' }, data: { a: 'b' } },
      'meta.k8s.io'
    );
    assert.deepEqual(
      t.columnDefinitions.map((c) => c.name),
      ['Name', 'Data', 'Age']
    );
  });
});
