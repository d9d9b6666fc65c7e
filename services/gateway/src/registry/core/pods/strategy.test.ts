// Table tests of the pod strategy: ValidatePodCreate's restart policy and ValidatePodUpdate's
// mutable fields (upstream TestValidatePodUpdate cases named per row).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { podUpdateForbiddenMsg, validatePod, validatePodUpdate } from './strategy.js';

const pod = (): any => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p', namespace: 'default' },
  spec: {
    containers: [{ name: 'app', image: 'nginx:1.26' }],
    tolerations: [{ key: 'a', operator: 'Exists' }],
    terminationGracePeriodSeconds: 30,
  },
});

describe('validatePod (ValidatePodCreate)', () => {
  it('a valid pod', () => assert.deepEqual(validatePod(pod()), []));
  it('unsupported restartPolicy', () => {
    const p = pod();
    p.spec.restartPolicy = 'Sometimes';
    assert.deepEqual(
      validatePod(p).map((e) => `${e.type} ${e.field}`),
      ['FieldValueNotSupported spec.restartPolicy']
    );
  });
});

const rows: { name: string; mutate: (s: any) => void; forbidden: boolean; oldTgp?: number }[] = [
  { name: 'no change', mutate: () => {}, forbidden: false },
  { name: 'image change', mutate: (s) => (s.containers[0].image = 'nginx:1.27'), forbidden: false },
  {
    name: 'activeDeadlineSeconds set',
    mutate: (s) => (s.activeDeadlineSeconds = 30),
    forbidden: false,
  },
  {
    name: 'toleration added',
    mutate: (s) => s.tolerations.push({ key: 'b', operator: 'Exists' }),
    forbidden: false,
  },
  { name: 'toleration removed', mutate: (s) => (s.tolerations = []), forbidden: true },
  {
    name: 'terminationGracePeriodSeconds negative to 1',
    mutate: (s) => (s.terminationGracePeriodSeconds = 1),
    forbidden: false,
    oldTgp: -1,
  },
  {
    name: 'terminationGracePeriodSeconds negative to 20',
    mutate: (s) => (s.terminationGracePeriodSeconds = 20),
    forbidden: true,
    oldTgp: -1,
  },
  {
    name: 'container name change',
    mutate: (s) => (s.containers[0].name = 'other'),
    forbidden: true,
  },
  {
    name: 'container added',
    mutate: (s) => s.containers.push({ name: 'b', image: 'x' }),
    forbidden: true,
  },
  { name: 'nodeSelector change', mutate: (s) => (s.nodeSelector = { a: 'b' }), forbidden: true },
];

describe('validatePodUpdate (ValidatePodUpdate)', () => {
  for (const row of rows) {
    it(row.name, () => {
      const old = pod();
      if (row.oldTgp !== undefined) old.spec.terminationGracePeriodSeconds = row.oldTgp;
      const next = pod();
      row.mutate(next.spec);
      const errs = validatePodUpdate(next, old).filter((e) => e.field === 'spec');
      assert.deepEqual(
        errs.map((e) => `${e.type} ${e.message}`),
        row.forbidden ? [`FieldValueForbidden ${podUpdateForbiddenMsg}`] : []
      );
    });
  }
});
