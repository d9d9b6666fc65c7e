import { test } from 'node:test';
import assert from 'node:assert/strict';
import { requestInfoOf } from './request-info.js';
import type { RequestInfo } from './request-info.js';

type Expected = Partial<Omit<RequestInfo, 'parts' | 'path'>>;

const resource = (e: Expected): Expected => ({
  isResourceRequest: true,
  apiGroup: '',
  apiVersion: 'v1',
  namespace: '',
  subresource: '',
  name: '',
  ...e,
});

const rows: { name: string; method: string; url: string; want: Expected }[] = [
  // Non-resource paths: the lowercased method is the verb.
  {
    name: 'health is a non-resource path',
    method: 'GET',
    url: '/healthz',
    want: { isResourceRequest: false, verb: 'get', apiPrefix: '' },
  },
  {
    name: 'version is a non-resource path',
    method: 'GET',
    url: '/version',
    want: { isResourceRequest: false, verb: 'get' },
  },
  {
    name: '/api discovery',
    method: 'GET',
    url: '/api',
    want: { isResourceRequest: false, verb: 'get', apiPrefix: 'api' },
  },
  {
    name: '/api/v1 discovery',
    method: 'GET',
    url: '/api/v1',
    want: { isResourceRequest: false, apiPrefix: 'api', apiVersion: 'v1' },
  },
  {
    name: '/apis discovery',
    method: 'GET',
    url: '/apis',
    want: { isResourceRequest: false, apiPrefix: 'apis' },
  },
  {
    name: 'group discovery',
    method: 'GET',
    url: '/apis/apps',
    want: { isResourceRequest: false, apiGroup: '' },
  },
  {
    name: 'group version discovery',
    method: 'GET',
    url: '/apis/apps/v1',
    want: { isResourceRequest: false, apiGroup: 'apps', apiVersion: 'v1' },
  },
  {
    name: 'a POST to a non-resource path',
    method: 'POST',
    url: '/metrics',
    want: { isResourceRequest: false, verb: 'post' },
  },
  // The core group.
  {
    name: 'core: list in a namespace',
    method: 'GET',
    url: '/api/v1/namespaces/ns1/pods',
    want: resource({ verb: 'list', namespace: 'ns1', resource: 'pods' }),
  },
  {
    name: 'core: list across namespaces',
    method: 'GET',
    url: '/api/v1/pods',
    want: resource({ verb: 'list', resource: 'pods' }),
  },
  {
    name: 'core: get',
    method: 'GET',
    url: '/api/v1/namespaces/ns1/pods/p1',
    want: resource({ verb: 'get', namespace: 'ns1', resource: 'pods', name: 'p1' }),
  },
  {
    name: 'core: HEAD is get',
    method: 'HEAD',
    url: '/api/v1/namespaces/ns1/pods/p1',
    want: resource({ verb: 'get', namespace: 'ns1', resource: 'pods', name: 'p1' }),
  },
  {
    name: 'core: create',
    method: 'POST',
    url: '/api/v1/namespaces/ns1/pods',
    want: resource({ verb: 'create', namespace: 'ns1', resource: 'pods' }),
  },
  {
    name: 'core: update',
    method: 'PUT',
    url: '/api/v1/namespaces/ns1/pods/p1',
    want: resource({ verb: 'update', namespace: 'ns1', resource: 'pods', name: 'p1' }),
  },
  {
    name: 'core: patch',
    method: 'PATCH',
    url: '/api/v1/namespaces/ns1/pods/p1',
    want: resource({ verb: 'patch', namespace: 'ns1', resource: 'pods', name: 'p1' }),
  },
  {
    name: 'core: delete',
    method: 'DELETE',
    url: '/api/v1/namespaces/ns1/pods/p1',
    want: resource({ verb: 'delete', namespace: 'ns1', resource: 'pods', name: 'p1' }),
  },
  {
    name: 'core: deletecollection',
    method: 'DELETE',
    url: '/api/v1/namespaces/ns1/pods',
    want: resource({ verb: 'deletecollection', namespace: 'ns1', resource: 'pods' }),
  },
  {
    name: 'an unknown method has no verb',
    method: 'OPTIONS',
    url: '/api/v1/namespaces/ns1/pods',
    want: resource({ verb: '', namespace: 'ns1', resource: 'pods' }),
  },
  // Named groups.
  {
    name: 'named group: list',
    method: 'GET',
    url: '/apis/apps/v1/namespaces/ns1/deployments',
    want: resource({ verb: 'list', apiGroup: 'apps', namespace: 'ns1', resource: 'deployments' }),
  },
  {
    name: 'named group: get',
    method: 'GET',
    url: '/apis/rbac.authorization.orch.io/v1/namespaces/ns1/roles/r1',
    want: resource({
      verb: 'get',
      apiGroup: 'rbac.authorization.orch.io',
      namespace: 'ns1',
      resource: 'roles',
      name: 'r1',
    }),
  },
  {
    name: 'named group: cluster-scoped create',
    method: 'POST',
    url: '/apis/authorization.orch.io/v1/subjectaccessreviews',
    want: resource({
      verb: 'create',
      apiGroup: 'authorization.orch.io',
      resource: 'subjectaccessreviews',
    }),
  },
  // Cluster-scoped kinds, namespaces themselves.
  {
    name: 'cluster-scoped: list',
    method: 'GET',
    url: '/api/v1/nodes',
    want: resource({ verb: 'list', resource: 'nodes' }),
  },
  {
    name: 'cluster-scoped: get',
    method: 'GET',
    url: '/api/v1/nodes/n1',
    want: resource({ verb: 'get', resource: 'nodes', name: 'n1' }),
  },
  {
    name: 'namespaces: list',
    method: 'GET',
    url: '/api/v1/namespaces',
    want: resource({ verb: 'list', resource: 'namespaces' }),
  },
  {
    name: 'namespaces: get names the namespace',
    method: 'GET',
    url: '/api/v1/namespaces/ns1',
    want: resource({ verb: 'get', resource: 'namespaces', name: 'ns1', namespace: 'ns1' }),
  },
  {
    name: 'namespaces: delete',
    method: 'DELETE',
    url: '/api/v1/namespaces/ns1',
    want: resource({ verb: 'delete', resource: 'namespaces', name: 'ns1', namespace: 'ns1' }),
  },
  // Subresources.
  {
    name: 'subresource: status update',
    method: 'PUT',
    url: '/api/v1/namespaces/ns1/pods/p1/status',
    want: resource({
      verb: 'update',
      namespace: 'ns1',
      resource: 'pods',
      name: 'p1',
      subresource: 'status',
    }),
  },
  {
    name: 'subresource: namespace status',
    method: 'PATCH',
    url: '/api/v1/namespaces/ns1/status',
    want: resource({
      verb: 'patch',
      namespace: 'ns1',
      resource: 'namespaces',
      name: 'ns1',
      subresource: 'status',
    }),
  },
  {
    name: 'subresource: namespace finalize',
    method: 'PUT',
    url: '/api/v1/namespaces/ns1/finalize',
    want: resource({
      verb: 'update',
      namespace: 'ns1',
      resource: 'namespaces',
      name: 'ns1',
      subresource: 'finalize',
    }),
  },
  {
    name: 'subresource: token request',
    method: 'POST',
    url: '/api/v1/namespaces/ns1/serviceaccounts/sa1/token',
    want: resource({
      verb: 'create',
      namespace: 'ns1',
      resource: 'serviceaccounts',
      name: 'sa1',
      subresource: 'token',
    }),
  },
  {
    name: 'subresource: named group',
    method: 'GET',
    url: '/apis/apps/v1/namespaces/ns1/deployments/d1/status',
    want: resource({
      verb: 'get',
      apiGroup: 'apps',
      namespace: 'ns1',
      resource: 'deployments',
      name: 'd1',
      subresource: 'status',
    }),
  },
  // Watch: the query parameter and the /watch/ prefix.
  {
    name: 'watch=true on a collection',
    method: 'GET',
    url: '/api/v1/namespaces/ns1/pods?watch=true',
    want: resource({ verb: 'watch', namespace: 'ns1', resource: 'pods' }),
  },
  {
    name: 'watch=1 on a collection',
    method: 'GET',
    url: '/api/v1/pods?watch=1',
    want: resource({ verb: 'watch', resource: 'pods' }),
  },
  {
    name: 'watch=false is a list',
    method: 'GET',
    url: '/api/v1/pods?watch=false',
    want: resource({ verb: 'list', resource: 'pods' }),
  },
  {
    name: 'watch=true on one object',
    method: 'GET',
    url: '/api/v1/namespaces/ns1/pods/p1?watch=true',
    want: resource({ verb: 'watch', namespace: 'ns1', resource: 'pods', name: 'p1' }),
  },
  {
    name: '/watch/ prefix on a collection',
    method: 'GET',
    url: '/api/v1/watch/namespaces/ns1/pods',
    want: resource({ verb: 'watch', namespace: 'ns1', resource: 'pods' }),
  },
  {
    name: '/watch/ prefix across namespaces',
    method: 'GET',
    url: '/apis/apps/v1/watch/deployments',
    want: resource({ verb: 'watch', apiGroup: 'apps', resource: 'deployments' }),
  },
  {
    name: '/watch/ prefix on one object',
    method: 'GET',
    url: '/api/v1/watch/namespaces/ns1/pods/p1',
    want: resource({ verb: 'watch', namespace: 'ns1', resource: 'pods', name: 'p1' }),
  },
  {
    name: '/watch/ prefix on namespaces',
    method: 'GET',
    url: '/api/v1/watch/namespaces',
    want: resource({ verb: 'watch', resource: 'namespaces' }),
  },
  {
    name: 'a resource named watch without more is not the prefix',
    method: 'GET',
    url: '/api/v1/watch',
    want: resource({ verb: 'list', resource: 'watch' }),
  },
  // Escaped path segments are decoded.
  {
    name: 'escaped names are decoded',
    method: 'GET',
    url: '/apis/rbac.authorization.orch.io/v1/clusterroles/system%3Abasic-user',
    want: resource({
      verb: 'get',
      apiGroup: 'rbac.authorization.orch.io',
      resource: 'clusterroles',
      name: 'system:basic-user',
    }),
  },
];

for (const row of rows) {
  test(`request info: ${row.name}`, () => {
    const info = requestInfoOf(row.method, new URL(row.url, 'https://orch.invalid'));
    const keys = Object.keys(row.want) as (keyof RequestInfo)[];
    const got = Object.fromEntries(keys.map((k) => [k, info[k]]));
    assert.deepEqual(got, row.want);
  });
}
