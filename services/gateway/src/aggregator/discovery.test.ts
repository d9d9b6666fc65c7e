import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fromResourceList } from './discovery.js';

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
