import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fieldValue } from './object-fields.js';
import { parseFieldSelector } from './field-selector.js';

const pod = {
  metadata: { name: 'web-1', namespace: 'default', generation: 3 },
  spec: { nodeName: 'node-a', hostNetwork: true, restartPolicy: null, containers: [{ name: 'c' }] },
  status: { phase: 'Running', ready: false, ratio: 0.5 },
};

test('fieldValue reads dotted paths and stringifies scalars like k8s', () => {
  const cases: [path: string, expected: string | undefined][] = [
    ['metadata.name', 'web-1'],
    ['metadata.namespace', 'default'],
    ['spec.nodeName', 'node-a'],
    ['status.phase', 'Running'],
    ['spec.hostNetwork', 'true'],
    ['status.ready', 'false'],
    ['metadata.generation', '3'],
    ['status.ratio', '0.5'],
    ['spec.restartPolicy', undefined],
    ['spec.containers', undefined],
    ['spec.containers.0', undefined],
    ['metadata', undefined],
    ['metadata.uid', undefined],
    ['metadata.name.length', undefined],
    ['metadata.constructor', undefined],
    ['', undefined],
  ];
  for (const [path, expected] of cases) {
    assert.equal(fieldValue(pod, path), expected, path);
  }
  assert.equal(fieldValue(undefined, 'metadata.name'), undefined);
  assert.equal(fieldValue(null, 'metadata.name'), undefined);
  assert.equal(fieldValue('str', 'length'), undefined);
});

test('fieldValue plugs into FieldSelector.matches', () => {
  const get = (field: string): string | undefined => fieldValue(pod, field);
  assert.equal(parseFieldSelector('spec.nodeName=node-a,status.phase!=Failed').matches(get), true);
  assert.equal(parseFieldSelector('spec.hostNetwork=true').matches(get), true);
  assert.equal(parseFieldSelector('metadata.uid=').matches(get), true);
  assert.equal(parseFieldSelector('spec.nodeName=node-b').matches(get), false);
});
