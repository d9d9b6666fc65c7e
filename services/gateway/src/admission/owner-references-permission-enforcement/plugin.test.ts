// OwnerReferencesPermissionEnforcement against a real suite (the gateway with the plugin on,
// RBAC answered by the authorizer service), the spec's admission plugin table row
// "OwnerReferencesPermissionEnforcement: Changing ownerReferences needs delete permission.
// Changing blockOwnerDeletion needs update on the owner's finalizers subresource." Users are
// impersonated by the admin; each group is granted its own ClusterRole.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultOnPlugins, enabledPluginNames } from '@orch/apimachinery/admission';
import { grantClusterRole, sharedSuite, startGateway } from '@orch/testing';
import type { Suite } from '@orch/testing';

let shared: Suite | undefined;
let suite: Suite;
const ns = 'owner-refs';
const base = `/api/v1/namespaces/${ns}/configmaps`;
let owner: { name: string; uid: string };

const as = (group: string) => ({ 'Impersonate-User': `${group}-user`, 'Impersonate-Group': group });
const ref = (blockOwnerDeletion?: boolean) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  name: owner.name,
  uid: owner.uid,
  ...(blockOwnerDeletion === undefined ? {} : { blockOwnerDeletion }),
});
const cm = (name: string, refs: unknown[] | undefined, labels?: Record<string, string>) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, ...(refs ? { ownerReferences: refs } : {}), ...(labels ? { labels } : {}) },
});

async function clusterRole(name: string, rules: unknown[]): Promise<void> {
  const r = await suite.request(0, 'POST', '/apis/rbac.authorization.orch.io/v1/clusterroles', {
    metadata: { name },
    rules,
  });
  assert.equal(r.status, 201, r.text);
}

before(async () => {
  shared = await sharedSuite();
  suite = await startGateway(shared, {
    args: ['--enable-admission-plugins=OwnerReferencesPermissionEnforcement'],
  });
  assert.equal(
    (await suite.request(0, 'POST', '/api/v1/namespaces', { metadata: { name: ns } })).status,
    201
  );
  const o = await suite.request(0, 'POST', base, cm('owner', undefined));
  owner = (o.body as { metadata: { name: string; uid: string } }).metadata;
  const writeCms = {
    apiGroups: [''],
    resources: ['configmaps'],
    verbs: ['get', 'create', 'update'],
  };
  await clusterRole('cm-writer', [writeCms]);
  await clusterRole('cm-owner', [
    { apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'create', 'update', 'delete'] },
    { apiGroups: [''], resources: ['configmaps/finalizers'], verbs: ['update'] },
  ]);
  const probe = { verb: 'create', resource: 'configmaps' };
  await grantClusterRole(suite, 'cm-writer', 'writers', probe);
  await grantClusterRole(suite, 'cm-owner', 'owners', probe);
});

after(async () => {
  await suite?.stop();
  await shared?.stop();
});

test('OwnerReferencesPermissionEnforcement is off by default, as upstream', () => {
  assert.equal(defaultOnPlugins.includes('OwnerReferencesPermissionEnforcement'), false);
  assert.equal(
    enabledPluginNames([], []).names.includes('OwnerReferencesPermissionEnforcement'),
    false
  );
});

const rows: {
  name: string;
  group: string;
  /** Absent: a create; else an update of an object created with no reference or with one. */
  start?: 'no-refs' | 'with-ref';
  refs: () => unknown[] | undefined;
  labels?: Record<string, string>;
  forbidden?: RegExp;
}[] = [
  {
    name: 'create with an ownerReference: no delete permission needed',
    group: 'writers',
    refs: () => [ref()],
  },
  {
    name: 'create setting blockOwnerDeletion without update on the owner finalizers: 403',
    group: 'writers',
    refs: () => [ref(true)],
    forbidden:
      /cannot set blockOwnerDeletion if an ownerReference refers to a resource you can't set finalizers on/,
  },
  {
    name: 'create setting blockOwnerDeletion with update on configmaps/finalizers',
    group: 'owners',
    refs: () => [ref(true)],
  },
  {
    name: 'update changing ownerReferences without delete on the object: 403',
    group: 'writers',
    start: 'no-refs',
    refs: () => [ref()],
    forbidden: /cannot set an ownerRef on a resource you can't delete/,
  },
  {
    name: 'update removing ownerReferences without delete on the object: 403',
    group: 'writers',
    start: 'with-ref',
    refs: () => undefined,
    forbidden: /cannot set an ownerRef on a resource you can't delete/,
  },
  {
    name: 'update leaving ownerReferences as they are: allowed',
    group: 'writers',
    start: 'with-ref',
    refs: () => [ref()],
    labels: { changed: 'yes' },
  },
  {
    name: 'update changing ownerReferences with delete on the object',
    group: 'owners',
    start: 'no-refs',
    refs: () => [ref()],
  },
  {
    name: 'update turning blockOwnerDeletion on without finalizers permission: 403',
    group: 'writers',
    start: 'with-ref',
    refs: () => [ref(true)],
    forbidden: /cannot set an ownerRef on a resource you can't delete/,
  },
];

for (const [i, row] of rows.entries()) {
  test(`OwnerReferencesPermissionEnforcement: ${row.name}`, async () => {
    const name = `row-${i}`;
    const desired = cm(name, row.refs(), row.labels);
    let r;
    if (row.start === undefined) {
      r = await suite.request(0, 'POST', base, desired, as(row.group));
    } else {
      const startRefs = row.start === 'with-ref' ? [ref()] : undefined;
      const created = await suite.request(0, 'POST', base, cm(name, startRefs));
      assert.equal(created.status, 201, created.text);
      const rv = (created.body as { metadata: { resourceVersion: string } }).metadata
        .resourceVersion;
      const body = { ...desired, metadata: { ...desired.metadata, resourceVersion: rv } };
      r = await suite.request(0, 'PUT', `${base}/${name}`, body, as(row.group));
    }
    if (row.forbidden) {
      assert.equal(r.status, 403, r.text);
      assert.match((r.body as { message: string }).message, row.forbidden);
      assert.match(
        (r.body as { message: string }).message,
        new RegExp(`configmaps "${name}" is forbidden`)
      );
    } else {
      assert.ok(r.status === 200 || r.status === 201, r.text);
    }
  });
}
