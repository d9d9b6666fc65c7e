// Errors answered under an upstream group alias, byte for byte as upstream's apiserver writes
// them (apimachinery/pkg/api/errors NewNotFound, NewAlreadyExists, NewConflict, NewInvalid, then
// the JSON serializer's Encode): the group in the message and in details is the one the client
// asked for. One 404 per aliased group, then a 409 AlreadyExists and a 409 Conflict on
// Roles, and a 422 on a RoleBinding.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sharedSuite } from '@orch/testing';
import type { Suite } from '@orch/testing';
import { builtinResources } from '@orch/apimachinery/registry';
import { upstreamGroup, upstreamGroupAliases } from '@orch/apimachinery/schema';

let suite: Suite;
const ns = 'alias-status-bytes';
const roles = `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/roles`;
const role = (name: string, rules: unknown[], extra: Record<string, unknown> = {}) => ({
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'Role',
  metadata: { name, ...extra },
  rules,
});
const readPods = [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }];

/** Upstream's bytes of a failure Status: its fields in Go's order, one line and a newline. */
const upstreamStatus = (
  message: string,
  reason: string,
  details: Record<string, unknown>,
  code: number
): string =>
  `${JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, details, code })}\n`;

before(async () => {
  suite = await sharedSuite();
  const r = await suite.request(0, 'POST', '/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: ns },
  });
  assert.equal(r.status, 201, r.text);
});

after(async () => {
  await suite.request(0, 'DELETE', `/api/v1/namespaces/${ns}`);
  await suite.stop();
});

test('a 404 under every aliased group names the upstream group in its message and details', async () => {
  for (const [upstream, served] of upstreamGroupAliases) {
    const def = builtinResources.find(
      (d) => d.group === served && !d.virtual && d.verbs.includes('get')
    );
    if (def === undefined) continue; // a group of operations only (access and token reviews)
    assert.equal(upstreamGroup(def.group), upstream);
    // The qualified resource is the Store's: events.k8s.io Events are the core group's Store
    // (upstream's pkg/registry/events serves core's event storage), so their 404 names `events`.
    const group = upstreamGroup(def.storageGroup ?? def.group);
    const qualified = group === '' ? def.resource : `${def.resource}.${group}`;
    const scope = def.namespaced ? `namespaces/${ns}/` : '';
    const r = await suite.request(
      0,
      'GET',
      `/apis/${upstream}/${def.version}/${scope}${def.resource}/no-such-object`
    );
    assert.equal(r.status, 404, `${upstream}: ${r.text}`);
    assert.equal(
      r.text,
      upstreamStatus(
        `${qualified} "no-such-object" not found`,
        'NotFound',
        { name: 'no-such-object', ...(group === '' ? {} : { group }), kind: def.resource },
        404
      ),
      upstream
    );
  }
});

test('a 409 AlreadyExists under an alias: upstream bytes', async () => {
  assert.equal((await suite.request(0, 'POST', roles, role('twice', readPods))).status, 201);
  const r = await suite.request(0, 'POST', roles, role('twice', readPods));
  assert.equal(
    r.text,
    upstreamStatus(
      'roles.rbac.authorization.k8s.io "twice" already exists',
      'AlreadyExists',
      { name: 'twice', group: 'rbac.authorization.k8s.io', kind: 'roles' },
      409
    )
  );
});

test('a 409 Conflict on a stale resourceVersion under an alias: upstream bytes', async () => {
  const created = await suite.request(0, 'POST', roles, role('stale', readPods));
  assert.equal(created.status, 201, created.text);
  const rv = (created.body as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
  assert.equal(
    (await suite.request(0, 'PUT', `${roles}/stale`, role('stale', [], { resourceVersion: rv })))
      .status,
    200
  );
  const r = await suite.request(
    0,
    'PUT',
    `${roles}/stale`,
    role('stale', readPods, { resourceVersion: rv })
  );
  assert.equal(
    r.text,
    upstreamStatus(
      'Operation cannot be fulfilled on roles.rbac.authorization.k8s.io "stale": the object has been modified; please apply your changes to the latest version and try again',
      'Conflict',
      { name: 'stale', group: 'rbac.authorization.k8s.io', kind: 'roles' },
      409
    )
  );
});

test('a 422 under an alias: Kind.group in the message and the group in a cause, upstream bytes', async () => {
  const r = await suite.request(
    0,
    'POST',
    `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/rolebindings`,
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: 'invalid' },
      roleRef: { apiGroup: 'example.com', kind: 'Role', name: 'r' },
    }
  );
  const unsupported =
    'Unsupported value: "example.com": supported values: "rbac.authorization.k8s.io"';
  assert.equal(
    r.text,
    upstreamStatus(
      `RoleBinding.rbac.authorization.k8s.io "invalid" is invalid: roleRef.apiGroup: ${unsupported}`,
      'Invalid',
      {
        name: 'invalid',
        group: 'rbac.authorization.k8s.io',
        kind: 'RoleBinding',
        causes: [
          { reason: 'FieldValueNotSupported', message: unsupported, field: 'roleRef.apiGroup' },
        ],
      },
      422
    )
  );
});
