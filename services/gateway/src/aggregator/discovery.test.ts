import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fromAggregated, fromResourceList } from './discovery.js';

test('fromResourceList: a legacy APIResourceList in the aggregated form, subresources under their resource', () => {
  const list = {
    kind: 'APIResourceList',
    groupVersion: 'ext.example/v1',
    resources: [
      {
        name: 'widgets',
        singularName: 'widget',
        namespaced: true,
        kind: 'Widget',
        verbs: ['get', 'list'],
        shortNames: ['wd'],
      },
      {
        name: 'widgets/status',
        singularName: '',
        namespaced: true,
        kind: 'Widget',
        verbs: ['get', 'patch'],
      },
      {
        name: 'gadgets',
        singularName: '',
        namespaced: false,
        kind: 'Gadget',
        verbs: ['get'],
        categories: ['all'],
      },
    ],
  };
  assert.deepEqual(fromResourceList(list), [
    {
      resource: 'widgets',
      responseKind: { group: '', version: '', kind: 'Widget' },
      scope: 'Namespaced',
      singularResource: 'widget',
      verbs: ['get', 'list'],
      shortNames: ['wd'],
      subresources: [
        {
          subresource: 'status',
          responseKind: { group: '', version: '', kind: 'Widget' },
          verbs: ['get', 'patch'],
        },
      ],
    },
    {
      resource: 'gadgets',
      responseKind: { group: '', version: '', kind: 'Gadget' },
      scope: 'Cluster',
      singularResource: '',
      verbs: ['get'],
      categories: ['all'],
    },
  ]);
  assert.deepEqual(fromResourceList({}), []);
});

test('fromAggregated: the resources of the group version an APIGroupDiscoveryList lists, else none', () => {
  const nodes = {
    resource: 'nodes',
    scope: 'Cluster',
    singularResource: 'nodemetrics',
    verbs: ['get'],
  };
  const list = {
    kind: 'APIGroupDiscoveryList',
    items: [
      { metadata: { name: 'other.io' }, versions: [{ version: 'v1', resources: [] }] },
      {
        metadata: { name: 'metrics.k8s.io' },
        versions: [{ version: 'v1beta1', resources: [nodes] }],
      },
    ],
  };
  assert.deepEqual(fromAggregated(list, 'metrics.k8s.io', 'v1beta1'), [nodes]);
  assert.equal(fromAggregated(list, 'metrics.k8s.io', 'v1'), undefined, 'version not listed');
  assert.equal(fromAggregated(list, 'absent.io', 'v1beta1'), undefined, 'group not listed');
  assert.equal(
    fromAggregated({ kind: 'APIGroupList', groups: [] }, 'metrics.k8s.io', 'v1beta1'),
    undefined
  );
});
