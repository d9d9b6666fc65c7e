import { test } from 'node:test';
import assert from 'node:assert/strict';
import { builtinSchemaModel } from '../schema-model/schema-model.js';
import { realisticPod } from '../testdata/index.js';
import { applyStrategicMergePatch } from './strategic-merge-patch.js';
import { PatchError } from './patch-error.js';

const podSchema = builtinSchemaModel().kind({ group: '', version: 'v1', kind: 'Pod' })!.message;
const deploySchema = builtinSchemaModel().kind({
  group: 'apps',
  version: 'v1',
  kind: 'Deployment',
})!.message;

const pod = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p', labels: { a: '1', b: '2' }, finalizers: ['x'] },
  spec: {
    containers: [
      {
        name: 'web',
        image: 'nginx:1',
        env: [
          { name: 'A', value: '1' },
          { name: 'B', value: '2' },
        ],
        ports: [{ containerPort: 80 }],
      },
      { name: 'side', image: 'busybox', args: ['a', 'b'] },
    ],
    tolerations: [{ key: 'k', operator: 'Exists' }],
  },
};

test('lists with a merge key merge element by element; maps merge; null deletes', () => {
  const out = applyStrategicMergePatch(
    pod,
    {
      metadata: { labels: { b: null, c: '3' } },
      spec: {
        containers: [
          {
            name: 'web',
            image: 'nginx:2',
            env: [
              { name: 'B', value: '22' },
              { name: 'C', value: '3' },
            ],
          },
          { name: 'new', image: 'x' },
        ],
      },
    },
    podSchema
  ) as any;
  assert.deepEqual(out.metadata.labels, { a: '1', c: '3' });
  assert.deepEqual(
    out.spec.containers.map((c: any) => [c.name, c.image]),
    [
      ['web', 'nginx:2'],
      ['side', 'busybox'],
      ['new', 'x'],
    ]
  );
  assert.deepEqual(out.spec.containers[0].env, [
    { name: 'A', value: '1' },
    { name: 'B', value: '22' },
    { name: 'C', value: '3' },
  ]);
  assert.deepEqual(out.spec.containers[0].ports, [{ containerPort: 80 }]);
  assert.deepEqual(pod.metadata.labels, { a: '1', b: '2' }, 'the original is not mutated');
});

test('lists without a merge strategy are replaced; scalar merge lists are unions', () => {
  const out = applyStrategicMergePatch(
    pod,
    {
      metadata: { finalizers: ['y'] },
      spec: {
        tolerations: [{ key: 'other', operator: 'Exists' }],
        containers: [{ name: 'side', args: ['c'] }],
      },
    },
    podSchema
  ) as any;
  assert.deepEqual(out.metadata.finalizers, ['x', 'y']);
  assert.deepEqual(out.spec.tolerations, [{ key: 'other', operator: 'Exists' }]);
  assert.deepEqual(out.spec.containers[1].args, ['c']);
});

test('directives: $patch delete and replace, $deleteFromPrimitiveList, $setElementOrder, $retainKeys', () => {
  const out = applyStrategicMergePatch(
    pod,
    {
      metadata: { '$deleteFromPrimitiveList/finalizers': ['x'] },
      spec: {
        containers: [
          { name: 'side', $patch: 'delete' },
          { name: 'web', env: [{ $patch: 'replace' }, { name: 'Z', value: '9' }] },
        ],
        '$setElementOrder/containers': [{ name: 'web' }],
      },
    },
    podSchema
  ) as any;
  assert.deepEqual(out.metadata.finalizers, []);
  assert.deepEqual(
    out.spec.containers.map((c: any) => c.name),
    ['web']
  );
  assert.deepEqual(out.spec.containers[0].env, [{ name: 'Z', value: '9' }]);
  const ordered = applyStrategicMergePatch(
    pod,
    { spec: { '$setElementOrder/containers': [{ name: 'side' }, { name: 'web' }] } },
    podSchema
  ) as any;
  assert.deepEqual(
    ordered.spec.containers.map((c: any) => c.name),
    ['side', 'web']
  );

  const deploy = { spec: { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1 } } } };
  const recreated = applyStrategicMergePatch(
    deploy,
    { spec: { strategy: { $retainKeys: ['type'], type: 'Recreate' } } },
    deploySchema
  ) as any;
  assert.deepEqual(recreated.spec.strategy, { type: 'Recreate' });
  const replaced = applyStrategicMergePatch(
    realisticPod,
    { spec: { $patch: 'replace', containers: [{ name: 'only', image: 'x' }] } },
    podSchema
  ) as any;
  assert.deepEqual(replaced.spec, { containers: [{ name: 'only', image: 'x' }] });
});

test('malformed patches are PatchErrors', () => {
  assert.throws(() => applyStrategicMergePatch(pod, [], podSchema), PatchError);
  assert.throws(
    () =>
      applyStrategicMergePatch(pod, { spec: { containers: [{ image: 'no-name' }] } }, podSchema),
    PatchError
  );
  assert.throws(
    () => applyStrategicMergePatch(pod, { spec: { $patch: 'explode' } }, podSchema),
    PatchError
  );
});
