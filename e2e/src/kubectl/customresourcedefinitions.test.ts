// CustomResourceDefinitions, the kind, against a real suite with the controllers on:
// kubectl apply of published CRDs (cert-manager, Prometheus Operator), the naming and
// establishing controllers (NamesAccepted, Established, acceptedNames), a names conflict
// between two CRDs of one group and its release when the first goes, validation refusing with
// every violation and storing nothing, the strategy (status kept, generation, storedVersions,
// /status), and a delete that waits on the customresourcecleanup finalizer.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSuite, waitFor } from '@orch/testing';
import type { Suite } from '@orch/testing';
import { runKubectl } from './run-kubectl.js';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'fixtures', 'crds');
const crds = '/apis/apiextensions.orch.io/v1/customresourcedefinitions';
const dir = mkdtempSync(join(tmpdir(), 'orch-kubectl-crd-'));

interface Condition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
}
interface Crd {
  metadata: {
    name: string;
    generation?: number;
    resourceVersion?: string;
    finalizers?: string[];
    deletionTimestamp?: string;
  };
  spec: any;
  status?: { conditions?: Condition[]; acceptedNames?: any; storedVersions?: string[] };
}

const cond = (c: Crd, type: string): Condition | undefined =>
  c.status?.conditions?.find((x) => x.type === type);

function crd(plural: string, kind: string, extra: { shortNames?: string[] } = {}): Crd {
  return {
    metadata: { name: `${plural}.widgets.example.com` },
    spec: {
      group: 'widgets.example.com',
      names: { plural, kind, ...extra },
      scope: 'Namespaced',
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                spec: {
                  type: 'object',
                  properties: { size: { type: 'integer', minimum: 1, default: 3 } },
                },
              },
            },
          },
          subresources: { status: {} },
        },
      ],
    },
  };
}

describe('CustomResourceDefinitions', () => {
  let suite: Suite;
  const kubectl = (args: string[], input?: string) =>
    runKubectl(suite.kubeconfigs[0]!, join(dir, 'cache'), args, input);
  const get = async (name: string): Promise<{ status: number; body: Crd }> => {
    const r = await suite.request(0, 'GET', `${crds}/${name}`);
    return { status: r.status, body: r.body as Crd };
  };
  const create = async (c: Crd): Promise<Crd> => {
    const r = await suite.request(0, 'POST', crds, {
      apiVersion: 'apiextensions.orch.io/v1',
      kind: 'CustomResourceDefinition',
      ...c,
    });
    assert.equal(r.status, 201, r.text);
    return r.body as Crd;
  };
  const until = (what: string, ok: () => Promise<boolean>) =>
    waitFor(what, ok, { timeoutMs: 20_000, intervalMs: 50 });
  const conditionIs = async (name: string, type: string, status: string) =>
    cond((await get(name)).body, type)?.status === status;

  before(async () => {
    suite = await startSuite({ controllers: true });
  });
  after(async () => {
    await suite?.stop();
  });

  it('kubectl apply accepts the published CRDs; they become NamesAccepted and Established', async () => {
    for (const file of [
      'certificates.cert-manager.io.yaml',
      'servicemonitors.monitoring.coreos.com.yaml',
    ]) {
      const r = await kubectl(['apply', '-f', join(fixtures, file)]);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /customresourcedefinition\.apiextensions\.orch\.io\/.* created/);
    }
    const name = 'servicemonitors.monitoring.coreos.com';
    await until(`${name} Established`, () => conditionIs(name, 'Established', 'True'));
    const got = (await get(name)).body;
    assert.deepEqual(
      { ...cond(got, 'NamesAccepted'), lastTransitionTime: undefined },
      {
        type: 'NamesAccepted',
        status: 'True',
        reason: 'NoConflicts',
        message: 'no conflicts found',
        lastTransitionTime: undefined,
      }
    );
    assert.equal(cond(got, 'Established')?.reason, 'InitialNamesAccepted');
    assert.deepEqual(got.status?.acceptedNames, {
      plural: 'servicemonitors',
      singular: 'servicemonitor',
      shortNames: ['smon'],
      kind: 'ServiceMonitor',
      listKind: 'ServiceMonitorList',
      categories: ['prometheus-operator'],
    });
    assert.deepEqual(got.status?.storedVersions, ['v1']);
    // defaults as upstream: conversion None
    assert.deepEqual(got.spec.conversion, { strategy: 'None' });
    // The schema is kept as sent: a keyword of the published schema comes back unchanged.
    const schema = got.spec.versions[0].schema.openAPIV3Schema;
    assert.equal(schema.properties.spec.type, 'object');
    // kubectl get crd lists NAME and CREATED AT.
    const table = await kubectl(['get', 'crd', name]);
    assert.equal(table.code, 0, table.stderr);
    assert.match(table.stdout, /^NAME\s+CREATED AT\n/);
    assert.match(table.stdout, /servicemonitors\.monitoring\.coreos\.com\s+\d{4}-\d\d-\d\dT/);
    // A second apply of the same file changes nothing.
    const again = await kubectl([
      'apply',
      '-f',
      join(fixtures, 'servicemonitors.monitoring.coreos.com.yaml'),
    ]);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /unchanged/);
  });

  it('kubectl apply --server-side creates and updates a CRD; the schema is one value in managedFields', async () => {
    const name = 'whatsits.widgets.example.com';
    const c = {
      apiVersion: 'apiextensions.orch.io/v1',
      kind: 'CustomResourceDefinition',
      ...crd('whatsits', 'Whatsit'),
    };
    const first = await kubectl(['apply', '--server-side', '-f', '-'], JSON.stringify(c));
    assert.equal(first.code, 0, first.stderr);
    await until(`${name} Established`, () => conditionIs(name, 'Established', 'True'));
    c.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.color = {
      type: 'string',
    };
    const second = await kubectl(['apply', '--server-side', '-f', '-'], JSON.stringify(c));
    assert.equal(second.code, 0, second.stderr);
    const got = (await get(name)).body;
    assert.deepEqual(
      Object.keys(got.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties).sort(),
      ['color', 'size']
    );
    assert.equal(got.metadata.generation, 2);
  });

  it('a second CRD of the group whose names conflict is not accepted, until the first goes', async () => {
    await create(crd('gadgets', 'Gadget', { shortNames: ['gd'] }));
    await until('gadgets Established', () =>
      conditionIs('gadgets.widgets.example.com', 'Established', 'True')
    );
    // Same kind (Gadget) and short name (gd), another plural.
    await create(crd('gizmos', 'Gadget', { shortNames: ['gd', 'gz'] }));
    const name = 'gizmos.widgets.example.com';
    await until('gizmos NamesAccepted False', () => conditionIs(name, 'NamesAccepted', 'False'));
    const got = (await get(name)).body;
    assert.deepEqual(
      [cond(got, 'NamesAccepted')?.reason, cond(got, 'NamesAccepted')?.message],
      // Each conflict found overwrites the reason, as upstream: listKind is checked last.
      ['ListKindConflict', '"GadgetList" is already in use']
    );
    assert.deepEqual(
      [cond(got, 'Established')?.status, cond(got, 'Established')?.reason],
      ['False', 'NotAccepted']
    );
    // The names that conflict with nothing are accepted; the others are left out.
    assert.equal(got.status?.acceptedNames.plural, 'gizmos');
    // singular defaults to the lowercased kind, gadget: taken too.
    assert.equal(got.status?.acceptedNames.singular, undefined);
    assert.equal(got.status?.acceptedNames.kind, '');
    assert.equal(got.status?.acceptedNames.shortNames, undefined);

    const del = await suite.request(0, 'DELETE', `${crds}/gadgets.widgets.example.com`);
    assert.ok(del.status === 200 || del.status === 202, del.text);
    await until('gizmos accepted once gadgets is gone', () =>
      conditionIs(name, 'Established', 'True')
    );
    const after = (await get(name)).body;
    assert.equal(cond(after, 'NamesAccepted')?.reason, 'NoConflicts');
    assert.deepEqual(after.status?.acceptedNames.shortNames, ['gd', 'gz']);
    assert.equal(after.status?.acceptedNames.kind, 'Gadget');
  });

  it('refuses an invalid CRD with every violation and stores nothing', async () => {
    const bad = crd('sprockets', 'Sprocket');
    bad.metadata.name = 'sprocket.widgets.example.com';
    bad.spec.scope = 'Everywhere';
    bad.spec.versions[0].storage = false;
    bad.spec.versions[0].additionalPrinterColumns = [
      { name: 'Size', type: 'float', jsonPath: '.spec.size' },
    ];
    const r = await suite.request(0, 'POST', crds, {
      apiVersion: 'apiextensions.orch.io/v1',
      kind: 'CustomResourceDefinition',
      ...bad,
    });
    assert.equal(r.status, 422, r.text);
    const causes = (r.body as { details: { causes: { field: string }[] } }).details.causes.map(
      (c) => c.field
    );
    assert.deepEqual(causes, [
      'metadata.name',
      'spec.scope',
      'spec.versions[0].additionalPrinterColumns[0].type',
      'spec.versions',
      'status.storedVersions',
    ]);
    assert.match(r.text, /must be spec\.names\.plural\+\\"\.\\"\+spec\.group/);
    assert.match(r.text, /must have exactly one version marked as storage version/);
    assert.equal((await get('sprocket.widgets.example.com')).status, 404);
  });

  it('keeps status on writes of the main resource, bumps generation on spec changes, records stored versions', async () => {
    const name = 'doohickeys.widgets.example.com';
    const c = crd('doohickeys', 'Doohickey');
    (c as any).status = { storedVersions: ['v9'], acceptedNames: { plural: 'x', kind: 'X' } };
    const created = await create(c);
    // On create the status is cleared (to the empty CustomResourceDefinitionStatus, whose
    // acceptedNames Go always writes) and storedVersions holds the storage version.
    assert.deepEqual(created.status, {
      acceptedNames: { plural: '', kind: '' },
      storedVersions: ['v1'],
    });
    assert.equal(created.metadata.generation, 1);
    await until(`${name} Established`, () => conditionIs(name, 'Established', 'True'));

    // A second version becomes the storage version: storedVersions keeps both, generation 2.
    const cur = (await get(name)).body;
    const v2 = { ...structuredClone(cur.spec.versions[0]), name: 'v2' };
    cur.spec.versions[0].storage = false;
    cur.spec.versions.push(v2);
    cur.status = { storedVersions: [] };
    const put = await suite.request(0, 'PUT', `${crds}/${name}`, cur);
    assert.equal(put.status, 200, put.text);
    const updated = put.body as Crd;
    assert.equal(updated.metadata.generation, 2);
    assert.deepEqual(updated.status?.storedVersions, ['v1', 'v2']);
    assert.equal(cond(updated, 'Established')?.status, 'True');

    // v1 cannot leave spec.versions while it is stored.
    const drop = structuredClone(updated);
    drop.spec.versions.shift();
    const refused = await suite.request(0, 'PUT', `${crds}/${name}`, drop);
    assert.equal(refused.status, 422, refused.text);
    assert.match(refused.text, /status\.storedVersions\[0\].*v1 was previously a storage version/);

    // /status writes status only: storedVersions may shrink there, spec changes are ignored.
    const st = structuredClone(updated);
    st.status!.storedVersions = ['v2'];
    st.spec.scope = 'Cluster';
    const sr = await suite.request(0, 'PUT', `${crds}/${name}/status`, st);
    assert.equal(sr.status, 200, sr.text);
    assert.deepEqual((sr.body as Crd).status?.storedVersions, ['v2']);
    assert.equal((sr.body as Crd).spec.scope, 'Namespaced');
    assert.equal((sr.body as Crd).metadata.generation, 2);
    // Now v1 may go.
    const now = (await get(name)).body;
    now.spec.versions.shift();
    const ok = await suite.request(0, 'PUT', `${crds}/${name}`, now);
    assert.equal(ok.status, 200, ok.text);
    assert.equal((ok.body as Crd).metadata.generation, 3);
  });

  it('a delete marks the CRD Terminating with the cleanup finalizer, which the finalizer controller removes', async () => {
    const name = 'thingamajigs.widgets.example.com';
    assert.equal((await create(crd('thingamajigs', 'Thingamajig'))).metadata.finalizers, undefined);
    await until(`${name} Established`, () => conditionIs(name, 'Established', 'True'));
    const del = await suite.request(0, 'DELETE', `${crds}/${name}`);
    assert.equal(del.status, 200, del.text);
    const marked = del.body as Crd;
    assert.ok(marked.metadata.deletionTimestamp);
    assert.deepEqual(marked.metadata.finalizers, ['customresourcecleanup.apiextensions.orch.io']);
    assert.deepEqual(
      [cond(marked, 'Terminating')?.status, cond(marked, 'Terminating')?.reason],
      ['True', 'InstanceDeletionPending']
    );
    await until(`${name} gone`, async () => (await get(name)).status === 404);
  });
  it('the finalizer deletes the objects the CRD serves, in every namespace, before the CRD goes', async () => {
    // Custom resources are served by another branch; a CRD naming a built-in resource
    // (networking.orch.io/v1 networkpolicies, which nothing else in the suite writes) has the
    // finalizer delete real objects through the same API paths.
    const np = (ns: string, name: string) => ({
      apiVersion: 'networking.orch.io/v1',
      kind: 'NetworkPolicy',
      metadata: { name, namespace: ns },
      spec: { podSelector: {} },
    });
    for (const ns of ['crd-a', 'crd-b']) {
      const r = await suite.request(0, 'POST', '/api/v1/namespaces', {
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: { name: ns },
      });
      assert.equal(r.status, 201, r.text);
      for (const name of ['one', 'two']) {
        const c = await suite.request(
          0,
          'POST',
          `/apis/networking.orch.io/v1/namespaces/${ns}/networkpolicies`,
          np(ns, name)
        );
        assert.equal(c.status, 201, c.text);
      }
    }
    const c = crd('networkpolicies', 'NetworkPolicy');
    c.metadata.name = 'networkpolicies.networking.orch.io';
    (c.metadata as any).annotations = { 'api-approved.kubernetes.io': 'unapproved, test only' };
    c.spec.group = 'networking.orch.io';
    await create(c);
    const name = c.metadata.name;
    await until(`${name} Established`, () => conditionIs(name, 'Established', 'True'));
    const del = await suite.request(0, 'DELETE', `${crds}/${name}`);
    assert.equal(del.status, 200, del.text);
    await until(`${name} gone`, async () => (await get(name)).status === 404);
    const left = await suite.request(0, 'GET', '/apis/networking.orch.io/v1/networkpolicies');
    assert.equal(left.status, 200, left.text);
    assert.deepEqual((left.body as { items: unknown[] }).items, []);
  });
});
