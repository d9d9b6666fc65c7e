// The PVC and PV protection controllers' decisions, row by row with upstream's cases
// (pvc_protection_controller_test.go, pv_protection_controller_test.go).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isDeletionCandidate, needToAddFinalizer } from './protection-controller.js';
import { pvIsBeingUsed } from './pv-protection-controller.js';
import { podUsesPVC } from './pvc-protection-controller.js';

type Json = Record<string, unknown>;
const pvc = (name: string, owners?: Json[]): Json => ({
  metadata: { name, namespace: 'ns', ...(owners ? { ownerReferences: owners } : {}) },
});
const pod = (spec: Json, phase = 'Running'): Json => ({
  metadata: { name: 'pod1', namespace: 'ns', uid: 'pod-uid' },
  spec,
  status: { phase },
});
const claimVolume = (claimName: string) => ({
  name: 'data',
  persistentVolumeClaim: { claimName },
});
const ephemeral = { name: 'scratch', ephemeral: { volumeClaimTemplate: { spec: {} } } };
const ownedByPod = [{ kind: 'Pod', name: 'pod1', uid: 'pod-uid', controller: true }];

const rows: { name: string; pod: Json; pvc: Json; used: boolean }[] = [
  {
    name: 'scheduled pod using the PVC blocks',
    pod: pod({ nodeName: 'n1', volumes: [claimVolume('c')] }),
    pvc: pvc('c'),
    used: true,
  },
  {
    name: 'unscheduled pod using the PVC does not block',
    pod: pod({ volumes: [claimVolume('c')] }),
    pvc: pvc('c'),
    used: false,
  },
  {
    name: 'scheduled pod using another PVC does not block',
    pod: pod({ nodeName: 'n1', volumes: [claimVolume('other')] }),
    pvc: pvc('c'),
    used: false,
  },
  {
    name: 'a terminated pod using the PVC still blocks',
    pod: pod({ nodeName: 'n1', volumes: [claimVolume('c')] }, 'Succeeded'),
    pvc: pvc('c'),
    used: true,
  },
  {
    name: 'a running pod’s generic ephemeral volume it owns blocks',
    pod: pod({ nodeName: 'n1', volumes: [ephemeral] }),
    pvc: pvc('pod1-scratch', ownedByPod),
    used: true,
  },
  {
    name: 'a terminated pod’s generic ephemeral volume does not block',
    pod: pod({ nodeName: 'n1', volumes: [ephemeral] }, 'Failed'),
    pvc: pvc('pod1-scratch', ownedByPod),
    used: false,
  },
  {
    name: 'a generic ephemeral name not owned by the pod does not block',
    pod: pod({ nodeName: 'n1', volumes: [ephemeral] }),
    pvc: pvc('pod1-scratch'),
    used: false,
  },
];

for (const row of rows) {
  test(`PVC protection: ${row.name}`, () => assert.equal(podUsesPVC(row.pod, row.pvc), row.used));
}

test('PV protection: a Bound volume is in use; Available, Released and Pending ones are not', () => {
  assert.equal(pvIsBeingUsed({ status: { phase: 'Bound' } }), true);
  for (const phase of ['Available', 'Released', 'Pending', undefined])
    assert.equal(pvIsBeingUsed({ status: { phase } }), false, String(phase));
});

test('protection: deletion candidates hold the finalizer and a deletionTimestamp; others need it added', () => {
  const f = 'orch.io/pv-protection';
  const deleting = {
    metadata: { name: 'x', deletionTimestamp: '2024-05-01T10:00:00Z', finalizers: [f] },
  };
  assert.equal(isDeletionCandidate(deleting, f), true);
  assert.equal(needToAddFinalizer(deleting, f), false);
  const bare = { metadata: { name: 'x' } };
  assert.equal(isDeletionCandidate(bare, f), false);
  assert.equal(needToAddFinalizer(bare, f), true);
  const goneFinalizer = { metadata: { name: 'x', deletionTimestamp: '2024-05-01T10:00:00Z' } };
  assert.equal(needToAddFinalizer(goneFinalizer, f), false, 'never added back to a deleted object');
});
