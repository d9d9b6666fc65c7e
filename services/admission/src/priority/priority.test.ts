// Priority, row by row with upstream's cases (plugin/pkg/admission/priority admission_test.go
// TestPodAdmission, TestPriorityClassAdmission, TestDefaultPriority).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ApiObject } from '@orch/apimachinery/meta';
import { pluginDeps, pod, recordingContext, request, specOf } from '../plugin-test-kit.js';
import type { RequestOptions } from '../plugin-test-kit.js';
import { defaultPriorityClass, newPriority } from './priority.js';

const pc = (
  name: string,
  value: number,
  extra: Record<string, unknown> = {},
  creationTimestamp = '2024-05-01T10:00:00Z'
): ApiObject => ({
  apiVersion: 'scheduling.orch.io/v1',
  kind: 'PriorityClass',
  metadata: { name, creationTimestamp },
  value,
  ...extra,
});

const defaultClass1 = pc('default1', 1000, { globalDefault: true });
const defaultClass2 = pc('default2', 2000, { globalDefault: true });
const nondefaultClass1 = pc('nondefault1', 2000, { description: 'Just a test priority class' });
const systemClusterCritical = pc('system-cluster-critical', 2000000000);
const neverPreempt = pc('never', 500, { preemptionPolicy: 'Never' });

const plugin = (classes: ApiObject[]) =>
  newPriority(pluginDeps({ objects: { priorityclasses: classes } }));

type Spec = Record<string, unknown>;
const podRows: {
  name: string;
  classes: ApiObject[];
  spec: Spec;
  namespace?: string;
  want?: Spec;
  error?: string;
}[] = [
  {
    name: 'Pod with no priority class and no default class: priority 0, PreemptLowerPriority',
    classes: [nondefaultClass1],
    spec: {},
    want: { priority: 0, preemptionPolicy: 'PreemptLowerPriority' },
  },
  {
    name: 'Pod with priority class: its value',
    classes: [defaultClass1, nondefaultClass1],
    spec: { priorityClassName: 'nondefault1' },
    want: { priorityClassName: 'nondefault1', priority: 2000 },
  },
  {
    name: 'Pod without priority class gets the global default class (name and value)',
    classes: [defaultClass1, nondefaultClass1],
    spec: {},
    want: { priorityClassName: 'default1', priority: 1000 },
  },
  {
    name: 'Pod with non-existing priority class is refused',
    classes: [defaultClass1, nondefaultClass1],
    spec: { priorityClassName: 'foo' },
    error: 'pods "p" is forbidden: no PriorityClass with name foo was found',
  },
  {
    name: 'pod with integer priority that differs from the computed one is refused',
    classes: [],
    spec: { priority: 1000 },
    error:
      'pods "p" is forbidden: the integer value of priority (1000) must not be provided in pod spec; priority admission controller computed 0 from the given PriorityClass name',
  },
  {
    name: 'pod with system critical priority in non-system namespace (allowed since upstream 1.17)',
    classes: [systemClusterCritical],
    spec: { priorityClassName: 'system-cluster-critical' },
    namespace: 'team-a',
    want: { priority: 2000000000 },
  },
  {
    name: 'pod with priority that matches computed priority',
    classes: [nondefaultClass1],
    spec: { priorityClassName: 'nondefault1', priority: 2000 },
    want: { priority: 2000 },
  },
  {
    name: 'pod with priority that matches default priority',
    classes: [defaultClass2],
    spec: { priority: 2000 },
    want: { priorityClassName: 'default2', priority: 2000 },
  },
  {
    name: 'pod with the class’s preemption policy: Never',
    classes: [neverPreempt],
    spec: { priorityClassName: 'never' },
    want: { priority: 500, preemptionPolicy: 'Never' },
  },
  {
    name: 'pod with preemption policy that matches the class',
    classes: [neverPreempt],
    spec: { priorityClassName: 'never', preemptionPolicy: 'Never' },
    want: { preemptionPolicy: 'Never' },
  },
  {
    name: 'pod with preemption policy that differs from the class is refused',
    classes: [neverPreempt],
    spec: { priorityClassName: 'never', preemptionPolicy: 'PreemptLowerPriority' },
    error:
      'pods "p" is forbidden: the string value of PreemptionPolicy (PreemptLowerPriority) must not be provided in pod spec; priority admission controller computed Never from the given PriorityClass name',
  },
  {
    name: 'several global defaults (a race): the one with the lowest value',
    classes: [defaultClass2, defaultClass1],
    spec: {},
    want: { priorityClassName: 'default1', priority: 1000 },
  },
];

for (const row of podRows) {
  test(`Priority: ${row.name}`, async () => {
    const req = request({
      resource: 'pods',
      namespace: row.namespace ?? 'ns',
      object: pod('p', { containers: [{ name: 'c' }], ...row.spec }),
    });
    const admitting = plugin(row.classes).admit!(req, recordingContext());
    if (row.error) {
      await assert.rejects(admitting, (err: any) => {
        assert.equal(err.status.code, 403);
        assert.equal(err.status.message, row.error);
        return true;
      });
      return;
    }
    await admitting;
    const spec = specOf<Spec>(req.object);
    for (const [k, v] of Object.entries(row.want ?? {})) assert.equal(spec[k], v, k);
  });
}

test('Priority: an update keeps the stored priority and preemption policy the new pod leaves out', async () => {
  const old = pod('p', { containers: [{ name: 'c' }], priority: 10, preemptionPolicy: 'Never' });
  const next = pod('p', { containers: [{ name: 'c', image: 'v2' }] });
  const req = request({ operation: 'UPDATE', resource: 'pods', object: next, oldObject: old });
  await plugin([]).admit!(req, recordingContext());
  const spec = specOf<Spec>(req.object);
  assert.equal(spec['priority'], 10);
  assert.equal(spec['preemptionPolicy'], 'Never');
});

test('Priority: subresources and other resources are left alone', async () => {
  const binding = request({
    resource: 'pods',
    subResource: 'binding',
    object: pod('p', { priorityClassName: 'missing' }),
  });
  await plugin([]).admit!(binding, recordingContext());
  const cm = request({ resource: 'configmaps', object: pod('p', {}) });
  await plugin([]).admit!(cm, recordingContext());
  assert.equal((cm.object as any).spec.priority, undefined);
});

const pcRows: { name: string; classes: ApiObject[]; req: RequestOptions; error?: string }[] = [
  {
    name: 'one default class',
    classes: [],
    req: { resource: 'priorityclasses', object: defaultClass1 },
  },
  {
    name: 'single non-default class',
    classes: [defaultClass1],
    req: { resource: 'priorityclasses', object: nondefaultClass1 },
  },
  {
    name: 'disallow a second default class',
    classes: [defaultClass1],
    req: { resource: 'priorityclasses', object: defaultClass2 },
    error:
      'priorityclasses.scheduling.orch.io "default2" is forbidden: PriorityClass default1 is already marked as default. Only one default can exist',
  },
  {
    name: 'update the default class itself',
    classes: [defaultClass1],
    req: {
      operation: 'UPDATE',
      resource: 'priorityclasses',
      object: { ...defaultClass1, description: 'updated' },
      oldObject: defaultClass1,
    },
  },
  {
    name: 'update a non-default class to default while another is default',
    classes: [defaultClass1, nondefaultClass1],
    req: {
      operation: 'UPDATE',
      resource: 'priorityclasses',
      object: { ...nondefaultClass1, globalDefault: true },
      oldObject: nondefaultClass1,
    },
    error:
      'priorityclasses.scheduling.orch.io "nondefault1" is forbidden: PriorityClass default1 is already marked as default. Only one default can exist',
  },
];

for (const row of pcRows) {
  test(`Priority (PriorityClasses): ${row.name}`, async () => {
    const validating = plugin(row.classes).validate!(
      request({ group: 'scheduling.orch.io', name: '', ...row.req }),
      recordingContext()
    );
    if (row.error) await assert.rejects(validating, { message: row.error });
    else await validating;
  });
}

test('Priority: defaultPriorityClass is the lowest-valued global default, none without one', () => {
  assert.equal(defaultPriorityClass([nondefaultClass1]), undefined);
  assert.equal(defaultPriorityClass([defaultClass2, defaultClass1])?.metadata.name, 'default1');
});
