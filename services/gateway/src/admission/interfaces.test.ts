// Binding a phase of admission to a request's attributes: the operation, options, names and
// objects each call sees.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ApiObject } from '@orch/apimachinery/meta';
import { admissionObjectFunc } from './interfaces.js';
import type { AdmissionAttributes, Operation, StaticAttributes } from './interfaces.js';

const base = (operation: Operation, dryRun = false): StaticAttributes => ({
  operation,
  kind: { group: '', version: 'v1', kind: 'ConfigMap' },
  resource: { group: '', version: 'v1', resource: 'configmaps' },
  subresource: '',
  namespace: 'path-ns',
  namespaced: true,
  name: '',
  user: undefined,
  dryRun,
});
const obj = (name: string): ApiObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace: 'body-ns' },
});

async function seen(
  attrs: StaticAttributes,
  o: ApiObject,
  old: ApiObject | undefined
): Promise<AdmissionAttributes> {
  let got: AdmissionAttributes | undefined;
  await admissionObjectFunc(async (a) => {
    got = a;
  }, attrs)!(o, old);
  return got!;
}

test('binding: a create names the object from its body, CreateOptions with the dry run', async () => {
  const a = await seen(base('CREATE', true), obj('made'), undefined);
  assert.equal(a.operation, 'CREATE');
  assert.equal(a.name, 'made');
  assert.equal(a.namespace, 'body-ns');
  assert.deepEqual(a.options, {
    apiVersion: 'meta.orch.io/v1',
    kind: 'CreateOptions',
    dryRun: ['All'],
  });
  assert.equal(a.oldObject, undefined);
});

test('binding: an update that finds nothing stored runs as CREATE; one that does, as UPDATE', async () => {
  const created = await seen(base('UPDATE'), obj('x'), undefined);
  assert.equal(created.operation, 'CREATE');
  assert.equal(created.options?.kind, 'CreateOptions');
  const updated = await seen(base('UPDATE'), obj('x'), obj('x'));
  assert.equal(updated.operation, 'UPDATE');
  assert.deepEqual(updated.options, { apiVersion: 'meta.orch.io/v1', kind: 'UpdateOptions' });
});

test('binding: a delete has no object and the stored one as oldObject', async () => {
  const stored = obj('gone');
  const a = await seen(base('DELETE'), stored, undefined);
  assert.equal(a.object, undefined);
  assert.equal(a.oldObject, stored);
  assert.equal(a.name, 'gone');
  assert.equal(a.options?.kind, 'DeleteOptions');
});

test('binding: no phase, no function', () => {
  assert.equal(admissionObjectFunc(undefined, base('CREATE')), undefined);
});
