// Custom resources served live in a suite of two gateways with the CRD
// controllers on: a CRD once Established is served by every gateway (discovery, REST, field
// selectors), its objects pruned (fieldValidation Strict/Warn/Ignore), defaulted and validated
// by the schema, the status subresource, JSON and YAML only, creates refused while the CRD is
// Terminating, and the resource gone from every gateway once the CRD is deleted.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sharedSuite, waitFor } from '@orch/testing';
import type { Suite } from '@orch/testing';

const group = 'serve.example.com';
const crdName = `gizmos.${group}`;
const crds = '/apis/apiextensions.orch.io/v1/customresourcedefinitions';
const gizmos = (ns: string, name = '') =>
  `/apis/${group}/v1/namespaces/${ns}/gizmos${name ? `/${name}` : ''}`;

const crd = {
  apiVersion: 'apiextensions.orch.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: crdName },
  spec: {
    group,
    names: { plural: 'gizmos', singular: 'gizmo', kind: 'Gizmo', shortNames: ['gz'] },
    scope: 'Namespaced',
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        subresources: {
          status: {},
          scale: {
            specReplicasPath: '.spec.replicas',
            statusReplicasPath: '.status.replicas',
            labelSelectorPath: '.status.selector',
          },
        },
        selectableFields: [{ jsonPath: '.spec.color' }],
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                'x-kubernetes-validations': [
                  { rule: 'self.size <= 10', message: 'size must be at most 10' },
                ],
                properties: {
                  size: { type: 'integer', minimum: 1, default: 3 },
                  color: { type: 'string', enum: ['red', 'blue'] },
                  replicas: { type: 'integer' },
                },
              },
              status: {
                type: 'object',
                properties: {
                  phase: { type: 'string' },
                  replicas: { type: 'integer' },
                  selector: { type: 'string' },
                },
              },
            },
          },
        },
      },
    ],
  },
};

const gizmo = (
  name: string,
  spec: Record<string, unknown>,
  more: Record<string, unknown> = {}
) => ({
  apiVersion: `${group}/v1`,
  kind: 'Gizmo',
  metadata: { name },
  spec,
  ...more,
});

describe('custom resources served by every gateway', () => {
  let suite: Suite;
  const until = (what: string, ok: () => Promise<boolean>) =>
    waitFor(what, ok, { timeoutMs: 20_000, intervalMs: 20 });

  before(async () => {
    suite = await sharedSuite({ controllers: true });
    const ns = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'cr' } };
    assert.equal((await suite.request(0, 'POST', '/api/v1/namespaces', ns)).status, 201);
  });
  after(async () => {
    await suite?.stop();
  });

  it('serves an Established CRD on both gateways: discovery and REST', async (t) => {
    assert.equal((await suite.request(0, 'GET', gizmos('cr'))).status, 404);
    const r = await suite.request(0, 'POST', crds, crd);
    assert.equal(r.status, 201, r.text);
    await until('Established', async () => {
      const got = (await suite.request(0, 'GET', `${crds}/${crdName}`)).body as any;
      return got.status?.conditions?.some(
        (c: any) => c.type === 'Established' && c.status === 'True'
      );
    });
    const established = Date.now();
    for (const gw of [0, 1]) {
      await until(`gateway ${gw} serves gizmos`, async () => {
        return (await suite.request(gw, 'GET', gizmos('cr'))).status === 200;
      });
    }
    t.diagnostic(`both gateways served gizmos ${Date.now() - established} ms after Established`);
    for (const gw of [0, 1]) {
      const groups = (await suite.request(gw, 'GET', '/apis')).body as any;
      const g = groups.groups.find((x: any) => x.name === group);
      assert.deepEqual(g?.preferredVersion, { groupVersion: `${group}/v1`, version: 'v1' });
      const list = (await suite.request(gw, 'GET', `/apis/${group}/v1`)).body as any;
      assert.deepEqual(
        list.resources.map((x: any) => [x.name, x.kind, x.namespaced, x.shortNames]),
        [
          ['gizmos', 'Gizmo', true, ['gz']],
          ['gizmos/status', 'Gizmo', true, undefined],
          ['gizmos/scale', 'Scale', true, undefined],
        ]
      );
    }
  });

  it('prunes unknown fields: Strict refuses, Warn warns, Ignore is silent; defaults are set', async () => {
    const strict = await suite.request(
      0,
      'POST',
      `${gizmos('cr')}?fieldValidation=Strict`,
      gizmo('a', { color: 'red', bogus: 1 })
    );
    assert.equal(strict.status, 400, strict.text);
    assert.match((strict.body as any).message, /strict decoding error: unknown field "spec.bogus"/);

    const warn = await suite.request(
      0,
      'POST',
      gizmos('cr'),
      gizmo('a', { color: 'red', bogus: 1 })
    );
    assert.equal(warn.status, 201, warn.text);
    assert.equal(warn.headers['warning'], '299 - "unknown field \\"spec.bogus\\""');
    assert.deepEqual((warn.body as any).spec, { color: 'red', size: 3 });

    const ignore = await suite.request(
      0,
      'POST',
      `${gizmos('cr')}?fieldValidation=Ignore`,
      gizmo('b', { color: 'blue', bogus: 1 })
    );
    assert.equal(ignore.status, 201, ignore.text);
    assert.equal(ignore.headers['warning'], undefined);
    // Read back through the other gateway: stored pruned and defaulted.
    const got = await suite.request(1, 'GET', gizmos('cr', 'b'));
    assert.deepEqual((got.body as any).spec, { color: 'blue', size: 3 });
  });

  it('refuses objects the schema does not accept, with upstream messages, storing nothing', async () => {
    const r = await suite.request(
      0,
      'POST',
      gizmos('cr'),
      gizmo('bad', { size: 0, color: 'green' })
    );
    assert.equal(r.status, 422, r.text);
    const body = r.body as any;
    assert.match(
      body.message,
      /spec\.size: Invalid value: 0: spec\.size in body should be greater than or equal to 1/
    );
    assert.match(
      body.message,
      /spec\.color: Unsupported value: "green": supported values: "red", "blue"/
    );
    assert.equal((await suite.request(0, 'GET', gizmos('cr', 'bad'))).status, 404);

    // An x-kubernetes-validations rule (CEL) refuses with its message, the value as its type.
    const cel = await suite.request(0, 'POST', gizmos('cr'), gizmo('big', { size: 11 }));
    assert.equal(cel.status, 422, cel.text);
    assert.equal(
      (cel.body as any).message,
      `Gizmo.${group} "big" is invalid: spec: Invalid value: "object": size must be at most 10`
    );
    // A CRD whose rule does not compile is refused.
    const broken = structuredClone(crd) as any;
    broken.metadata.name = `brokens.${group}`;
    broken.spec.names = { plural: 'brokens', kind: 'Broken' };
    broken.spec.versions[0].schema.openAPIV3Schema.properties.spec['x-kubernetes-validations'] = [
      { rule: 'self.size >' },
    ];
    const refused = await suite.request(0, 'POST', crds, broken);
    assert.equal(refused.status, 422, refused.text);
    assert.match(
      (refused.body as any).message,
      /x-kubernetes-validations\[0\]\.rule: Invalid value: .*compilation failed/
    );
  });

  it('status subresource: main writes keep status, /status writes only status; generation follows spec', async () => {
    const created = await suite.request(
      0,
      'POST',
      gizmos('cr'),
      gizmo('s', { color: 'red' }, { status: { phase: 'ignored' } })
    );
    assert.equal(created.status, 201, created.text);
    assert.equal((created.body as any).status, undefined);
    assert.equal((created.body as any).metadata.generation, 1);

    const st = await suite.request(0, 'PUT', `${gizmos('cr', 's')}/status`, {
      ...(created.body as any),
      spec: { color: 'blue', size: 9 },
      status: { phase: 'Ready' },
    });
    assert.equal(st.status, 200, st.text);
    assert.deepEqual((st.body as any).spec, { color: 'red', size: 3 });
    assert.deepEqual((st.body as any).status, { phase: 'Ready' });
    assert.equal((st.body as any).metadata.generation, 1);

    const patched = await suite.request(
      1,
      'PATCH',
      gizmos('cr', 's'),
      { spec: { size: 5 }, status: { phase: 'Lost' } },
      { 'Content-Type': 'application/merge-patch+json' }
    );
    assert.equal(patched.status, 200, patched.text);
    assert.deepEqual((patched.body as any).spec, { color: 'red', size: 5 });
    assert.deepEqual((patched.body as any).status, { phase: 'Ready' });
    assert.equal((patched.body as any).metadata.generation, 2);
  });

  it('scale subresource reads and writes the CRD paths', async () => {
    const st = await suite.request(
      0,
      'PATCH',
      `${gizmos('cr', 's')}/status`,
      {
        status: { replicas: 2, selector: 'app=gizmo' },
      },
      { 'Content-Type': 'application/merge-patch+json' }
    );
    assert.equal(st.status, 200, st.text);
    const scale = await suite.request(1, 'GET', `${gizmos('cr', 's')}/scale`);
    assert.equal(scale.status, 200, scale.text);
    assert.deepEqual(
      {
        kind: (scale.body as any).kind,
        spec: (scale.body as any).spec,
        status: (scale.body as any).status,
      },
      { kind: 'Scale', spec: { replicas: 0 }, status: { replicas: 2, selector: 'app=gizmo' } }
    );
    const put = await suite.request(1, 'PUT', `${gizmos('cr', 's')}/scale`, {
      ...(scale.body as any),
      spec: { replicas: 7 },
    });
    assert.equal(put.status, 200, put.text);
    const got = (await suite.request(0, 'GET', gizmos('cr', 's'))).body as any;
    assert.equal(got.spec.replicas, 7);
    assert.equal(got.spec.color, 'red');
  });

  it('a deprecated version answers with its warning', async () => {
    const old = structuredClone(crd) as any;
    old.metadata.name = `relics.${group}`;
    old.spec.names = { plural: 'relics', kind: 'Relic' };
    old.spec.versions[0].name = 'v1alpha1';
    old.spec.versions[0].deprecated = true;
    delete old.spec.versions[0].selectableFields;
    assert.equal((await suite.request(0, 'POST', crds, old)).status, 201);
    const path = `/apis/${group}/v1alpha1/namespaces/cr/relics`;
    await until('relics served', async () => (await suite.request(0, 'GET', path)).status === 200);
    const r = await suite.request(0, 'GET', path);
    assert.equal(r.headers['warning'], `299 - "${group}/v1alpha1 Relic is deprecated"`);
    assert.equal((await suite.request(0, 'DELETE', `${crds}/relics.${group}`)).status, 200);
  });

  it('selectable fields in field selectors; JSON and YAML only', async () => {
    const reds = await suite.request(1, 'GET', `${gizmos('cr')}?fieldSelector=spec.color%3Dred`);
    assert.equal(reds.status, 200, reds.text);
    assert.deepEqual((reds.body as any).items.map((o: any) => o.metadata.name).sort(), ['a', 's']);
    const unknown = await suite.request(1, 'GET', `${gizmos('cr')}?fieldSelector=spec.size%3D3`);
    assert.equal(unknown.status, 400, unknown.text);

    const smp = await suite.request(
      0,
      'PATCH',
      gizmos('cr', 'a'),
      { spec: { size: 4 } },
      {
        'Content-Type': 'application/strategic-merge-patch+json',
      }
    );
    assert.equal(smp.status, 415, smp.text);
    const pb = await suite.request(0, 'POST', gizmos('cr'), Buffer.from([0x6b, 0x38, 0x73, 0]), {
      'Content-Type': 'application/vnd.kubernetes.protobuf',
    });
    assert.equal(pb.status, 415, pb.text);
    const binary = { Accept: 'application/vnd.kubernetes.protobuf' };
    assert.equal((await suite.request(0, 'GET', gizmos('cr', 'a'), undefined, binary)).status, 406);
    const fallback = { Accept: 'application/vnd.kubernetes.protobuf, application/json' };
    const fb = await suite.request(0, 'GET', gizmos('cr', 'a'), undefined, fallback);
    assert.equal(fb.status, 200, fb.text);
    assert.equal(fb.headers['content-type'], 'application/json');
    const yaml = `apiVersion: ${group}/v1\nkind: Gizmo\nmetadata:\n  name: y\nspec:\n  color: blue\n`;
    const y = await suite.request(0, 'POST', gizmos('cr'), yaml, {
      'Content-Type': 'application/yaml',
    });
    assert.equal(y.status, 201, y.text);
    assert.deepEqual((y.body as any).spec, { color: 'blue', size: 3 });
  });

  it('RBAC rules on the plural in the CRD group decide who reaches custom resources', async () => {
    const alice = { 'Impersonate-User': 'alice' };
    const denied = await suite.request(1, 'GET', gizmos('cr'), undefined, alice);
    assert.equal(denied.status, 403, denied.text);
    assert.equal(
      (denied.body as any).message,
      `gizmos.${group} is forbidden: User "alice" cannot list resource "gizmos" in API group "${group}" in the namespace "cr"`
    );
    const rbac = '/apis/rbac.authorization.orch.io/v1/namespaces/cr';
    const role = {
      apiVersion: 'rbac.authorization.orch.io/v1',
      kind: 'Role',
      metadata: { name: 'gizmo-reader' },
      rules: [{ apiGroups: [group], resources: ['gizmos'], verbs: ['get', 'list'] }],
    };
    assert.equal((await suite.request(0, 'POST', `${rbac}/roles`, role)).status, 201);
    const binding = {
      apiVersion: 'rbac.authorization.orch.io/v1',
      kind: 'RoleBinding',
      metadata: { name: 'gizmo-reader' },
      roleRef: { apiGroup: 'rbac.authorization.orch.io', kind: 'Role', name: 'gizmo-reader' },
      subjects: [{ apiGroup: 'rbac.authorization.orch.io', kind: 'User', name: 'alice' }],
    };
    assert.equal((await suite.request(0, 'POST', `${rbac}/rolebindings`, binding)).status, 201);
    await until('alice may list gizmos', async () => {
      return (await suite.request(1, 'GET', gizmos('cr'), undefined, alice)).status === 200;
    });
    const write = await suite.request(1, 'POST', gizmos('cr'), gizmo('by-alice', {}), alice);
    assert.equal(write.status, 403, write.text);
  });

  it('a CRD update is served live: a new schema field, a version served then withdrawn', async () => {
    const live = (await suite.request(0, 'GET', `${crds}/${crdName}`)).body as any;
    const v1 = live.spec.versions[0];
    v1.schema.openAPIV3Schema.properties.spec.properties.shape = { type: 'string' };
    const beta = { ...structuredClone(v1), name: 'v1beta1', storage: false };
    delete beta.selectableFields;
    live.spec.versions = [v1, beta];
    const put = await suite.request(0, 'PUT', `${crds}/${crdName}`, live);
    assert.equal(put.status, 200, put.text);
    for (const gw of [0, 1]) {
      await until(`gateway ${gw} knows spec.shape`, async () => {
        const r = await suite.request(
          gw,
          'POST',
          `${gizmos('cr')}?fieldValidation=Strict&dryRun=All`,
          gizmo(`shape${gw}`, { shape: 'round' })
        );
        return r.status === 201;
      });
      await until(`gateway ${gw} serves v1beta1`, async () => {
        return (await suite.request(gw, 'GET', `/apis/${group}/v1beta1`)).status === 200;
      });
    }
    const apply = await suite.request(
      1,
      'PATCH',
      `${gizmos('cr', 'applied')}?fieldManager=bench`,
      `apiVersion: ${group}/v1\nkind: Gizmo\nmetadata:\n  name: applied\nspec:\n  shape: square\n`,
      { 'Content-Type': 'application/apply-patch+yaml' }
    );
    assert.equal(apply.status, 201, apply.text);
    assert.deepEqual((apply.body as any).spec, { shape: 'square', size: 3 });
    assert.equal((await suite.request(0, 'DELETE', gizmos('cr', 'applied'))).status, 200);

    const again = (await suite.request(0, 'GET', `${crds}/${crdName}`)).body as any;
    again.spec.versions[1].served = false;
    assert.equal((await suite.request(0, 'PUT', `${crds}/${crdName}`, again)).status, 200);
    for (const gw of [0, 1]) {
      await until(`gateway ${gw} withdrew v1beta1`, async () => {
        return (await suite.request(gw, 'GET', `/apis/${group}/v1beta1`)).status === 404;
      });
      const g = ((await suite.request(gw, 'GET', '/apis')).body as any).groups.find(
        (x: any) => x.name === group
      );
      assert.deepEqual(
        // relics' v1alpha1 may still be going (its CRD was deleted above).
        g.versions.map((v: any) => v.version).filter((v: string) => v !== 'v1alpha1'),
        ['v1']
      );
      assert.equal((await suite.request(gw, 'GET', gizmos('cr', 'a'))).status, 200);
    }
  });

  it('two versions with conversion None: written at one, read at the other (apiVersion only); an unreachable webhook fails naming its URL', async () => {
    const twoVersions = (name: string, plural: string, kind: string, conversion: unknown) => ({
      apiVersion: 'apiextensions.orch.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: `${plural}.${group}` },
      spec: {
        group,
        names: { plural, singular: name, kind },
        scope: 'Namespaced',
        conversion,
        versions: ['v1', 'v2'].map((v) => ({
          name: v,
          served: true,
          storage: v === 'v1',
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } },
            },
          },
        })),
      },
    });
    const at = (plural: string, v: string, obj = '') =>
      `/apis/${group}/${v}/namespaces/cr/${plural}${obj ? `/${obj}` : ''}`;
    const none = twoVersions('doohickey', 'doohickeys', 'Doohickey', { strategy: 'None' });
    const hook = twoVersions('whatsit', 'whatsits', 'Whatsit', {
      strategy: 'Webhook',
      webhook: {
        conversionReviewVersions: ['v1'],
        clientConfig: { url: 'https://127.0.0.1:1/convert' },
      },
    });
    for (const c of [none, hook]) {
      const r = await suite.request(0, 'POST', crds, c);
      assert.equal(r.status, 201, r.text);
    }
    for (const plural of ['doohickeys', 'whatsits']) {
      await until(`${plural} served at v2`, async () => {
        return (await suite.request(0, 'GET', at(plural, 'v2'))).status === 200;
      });
    }
    const obj = (kind: string, v: string, name: string) => ({
      apiVersion: `${group}/${v}`,
      kind,
      metadata: { name },
      spec: { size: 2 },
    });
    // None: a v2 write is stored at v1 and read back at either version.
    const made = await suite.request(
      0,
      'POST',
      at('doohickeys', 'v2'),
      obj('Doohickey', 'v2', 'a')
    );
    assert.equal(made.status, 201, made.text);
    assert.equal((made.body as any).apiVersion, `${group}/v2`);
    for (const v of ['v1', 'v2']) {
      const got = (await suite.request(0, 'GET', at('doohickeys', v, 'a'))).body as any;
      assert.equal(got.apiVersion, `${group}/${v}`);
      assert.deepEqual(got.spec, { size: 2 });
    }
    const listed = (await suite.request(0, 'GET', at('doohickeys', 'v2'))).body as any;
    assert.deepEqual(
      listed.items.map((i: any) => [i.apiVersion, i.metadata.name]),
      [[`${group}/v2`, 'a']]
    );
    // Webhook, unreachable: the storage version needs no call; another version fails naming
    // the webhook's URL (a working webhook: conversion/conversion-webhook.test.ts).
    const stored = await suite.request(0, 'POST', at('whatsits', 'v1'), obj('Whatsit', 'v1', 'b'));
    assert.equal(stored.status, 201, stored.text);
    const other = await suite.request(0, 'GET', at('whatsits', 'v2', 'b'));
    assert.equal(other.status, 500);
    assert.match(
      (other.body as any).message,
      /conversion webhook for serve\.example\.com\/v1, Kind=Whatsit failed: Post "https:\/\/127\.0\.0\.1:1\/convert": /
    );
    for (const c of [none, hook]) {
      await suite.request(0, 'DELETE', `${crds}/${c.metadata.name}`);
    }
  });

  it('refuses creates while the CRD is Terminating, then stops serving it everywhere', async () => {
    // An object with a finalizer of its own holds the CRD in Terminating.
    const held = gizmo('held', { color: 'red' });
    (held.metadata as any).finalizers = ['example.com/hold'];
    assert.equal((await suite.request(0, 'POST', gizmos('cr'), held)).status, 201);
    assert.equal((await suite.request(0, 'DELETE', `${crds}/${crdName}`)).status, 200);
    await until('create refused on both gateways', async () => {
      const codes = await Promise.all(
        [0, 1].map(
          async (gw) => (await suite.request(gw, 'POST', gizmos('cr'), gizmo(`t${gw}`, {}))).status
        )
      );
      return codes.every((c) => c === 405);
    });
    const refused = await suite.request(1, 'POST', gizmos('cr'), gizmo('late', {}));
    assert.equal(
      (refused.body as any).message,
      'create not allowed while custom resource definition is terminating'
    );
    const patch = { metadata: { finalizers: null } };
    const released = await suite.request(0, 'PATCH', gizmos('cr', 'held'), patch, {
      'Content-Type': 'application/merge-patch+json',
    });
    assert.equal(released.status, 200, released.text);
    for (const gw of [0, 1]) {
      await until(`gateway ${gw} stops serving gizmos`, async () => {
        return (await suite.request(gw, 'GET', gizmos('cr'))).status === 404;
      });
      const groups = (await suite.request(gw, 'GET', '/apis')).body as any;
      assert.equal(
        groups.groups.find((x: any) => x.name === group),
        undefined
      );
      assert.equal((await suite.request(gw, 'GET', `/apis/${group}/v1`)).status, 404);
    }
  });
});
