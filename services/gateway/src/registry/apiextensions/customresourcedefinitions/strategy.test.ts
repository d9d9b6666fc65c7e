// The CustomResourceDefinition strategy (upstream pkg/registry/customresourcedefinition
// strategy.go and etcd.go): status on create and update, storedVersions, the first delete's
// finalizer and Terminating condition, and what /status may change.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ApiObject } from '@orch/apimachinery/meta';
import { specChanged } from '../../strategy.js';
import { statusStrategy } from '../../status-rest.js';
import { customResourceDefinitionBaseStrategy as strategy } from './strategy.js';

function crd(storage = 'v1'): any {
  return {
    metadata: { name: 'crontabs.stable.example.com', generation: 1 },
    spec: {
      group: 'stable.example.com',
      names: { plural: 'crontabs', singular: 'crontab', kind: 'CronTab', listKind: 'CronTabList' },
      scope: 'Namespaced',
      versions: ['v1', 'v2'].map((name) => ({
        name,
        served: true,
        storage: name === storage,
        schema: { openAPIV3Schema: { type: 'object' } },
      })),
    },
  };
}

test('PrepareForCreate: the status a client sends is dropped; storedVersions holds the storage version', () => {
  const c = crd('v2');
  c.status = {
    storedVersions: ['v9'],
    conditions: [{ type: 'Established', status: 'True' }],
    acceptedNames: { plural: 'x', kind: 'X' },
  };
  strategy.prepareForCreate(c as ApiObject);
  assert.deepEqual(c.status, { storedVersions: ['v2'] });
});

test('PrepareForUpdate: status is kept from the stored object; a new storage version joins storedVersions once', () => {
  const old = crd('v1');
  old.status = { storedVersions: ['v1'], conditions: [{ type: 'Established', status: 'True' }] };
  const next = crd('v2');
  next.status = { storedVersions: [] };
  strategy.prepareForUpdate(next as ApiObject, old as ApiObject);
  assert.deepEqual(next.status, {
    storedVersions: ['v1', 'v2'],
    conditions: [{ type: 'Established', status: 'True' }],
  });
  assert.deepEqual(old.status.storedVersions, ['v1'], 'the stored object is not changed');
  const again = crd('v2');
  strategy.prepareForUpdate(again as ApiObject, next as ApiObject);
  assert.deepEqual(again.status.storedVersions, ['v1', 'v2']);
});

test('generation: a spec change raises it, a status or metadata change does not', () => {
  const old = crd();
  const labelled = { ...crd(), metadata: { ...crd().metadata, labels: { a: 'b' } } };
  assert.equal(specChanged(labelled as ApiObject, old as ApiObject), false);
  const withStatus = { ...crd(), status: { storedVersions: ['v1'] } };
  assert.equal(specChanged(withStatus as ApiObject, old as ApiObject), false);
  const served = crd();
  served.spec.versions[1].served = false;
  assert.equal(specChanged(served as ApiObject, old as ApiObject), true);
  assert.equal(strategy.keepsGeneration, undefined);
  assert.equal(statusStrategy(strategy).keepsGeneration, true);
});

test('/status writes only status: spec and metadata come from the stored object', () => {
  const old = crd();
  old.status = { storedVersions: ['v1'] };
  const next = crd();
  next.spec.scope = 'Cluster';
  next.metadata.labels = { sneaky: 'yes' };
  next.status = { storedVersions: ['v1'], acceptedNames: { plural: 'crontabs', kind: 'CronTab' } };
  statusStrategy(strategy).prepareForUpdate(next as ApiObject, old as ApiObject);
  assert.equal(next.spec.scope, 'Namespaced');
  assert.equal(next.metadata.labels, undefined);
  assert.deepEqual(next.status.acceptedNames, { plural: 'crontabs', kind: 'CronTab' });
});

test('delete: the first one asks for the cleanup finalizer and sets Terminating; later ones add nothing', () => {
  const c = crd();
  c.status = { storedVersions: ['v1'] };
  assert.deepEqual(strategy.pendingFinalizers!(c as ApiObject), [
    'customresourcecleanup.apiextensions.orch.io',
  ]);
  c.metadata.finalizers = ['example.com/keep'];
  c.metadata.deletionTimestamp = '2024-05-01T10:20:30Z';
  strategy.prepareForGracefulDelete!(c as ApiObject);
  assert.deepEqual(c.metadata.finalizers, [
    'example.com/keep',
    'customresourcecleanup.apiextensions.orch.io',
  ]);
  const [terminating] = c.status.conditions;
  assert.deepEqual(
    { ...terminating, lastTransitionTime: undefined },
    {
      type: 'Terminating',
      status: 'True',
      reason: 'InstanceDeletionPending',
      message:
        'CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon',
      lastTransitionTime: undefined,
    }
  );
  assert.match(terminating.lastTransitionTime, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  assert.deepEqual(strategy.pendingFinalizers!(c as ApiObject), []);
  strategy.prepareForGracefulDelete!(c as ApiObject);
  assert.equal(c.metadata.finalizers.length, 2);
});

test('a CRD is never created by PUT (AllowCreateOnUpdate false)', () => {
  assert.equal(strategy.allowCreateOnUpdate, false);
});
