// Pods (k8s pkg/registry/core/pod/strategy.go, pkg/apis/core/validation ValidatePodCreate /
// ValidatePodUpdate): the spec validated as ValidatePodSpec does, with any restart policy a pod
// may have; an update changes only container images, activeDeadlineSeconds, tolerations
// (additions), terminationGracePeriodSeconds (negative to 1) and schedulingGates (removals).
import { fieldForbidden, fieldNotSupported, newPath } from '@orch/apimachinery/errors';
import type { FieldError } from '@orch/apimachinery/errors';
import type { ApiObject } from '@orch/apimachinery/meta';
import { sameJson } from '@orch/apimachinery/meta';
import { statusStrategy } from '../../status-rest.js';
import { defaultStrategy } from '../../strategy.js';
import type { Strategy } from '../../strategy.js';
import { computePodQOS } from './qos.js';
import { validatePodSpec } from './validate-pod-spec.js';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const specOf = (o: ApiObject): Json => (isObject(o['spec']) ? o['spec'] : {});

const restartPolicies = ['Always', 'OnFailure', 'Never'] as const;

export const podUpdateForbiddenMsg =
  'pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)';

/** ValidatePodCreate. */
export function validatePod(pod: ApiObject): FieldError[] {
  const spec = specOf(pod);
  const errs = validatePodSpec(spec, newPath('spec'));
  const rp = spec['restartPolicy'];
  if (rp !== undefined && !(restartPolicies as readonly unknown[]).includes(rp)) {
    errs.push(fieldNotSupported(newPath('spec', 'restartPolicy'), rp, restartPolicies));
  }
  return errs;
}

/** ValidatePodUpdate: the spec with the mutable fields taken from the new pod must equal the old. */
export function validatePodUpdate(next: ApiObject, old: ApiObject): FieldError[] {
  const errs = validatePod(next);
  const nextSpec = specOf(next);
  const oldSpec = specOf(old);
  const mutated = structuredClone(oldSpec);
  for (const field of ['containers', 'initContainers'] as const) {
    const nextList = Array.isArray(nextSpec[field]) ? (nextSpec[field] as unknown[]) : [];
    const list = Array.isArray(mutated[field]) ? (mutated[field] as unknown[]) : [];
    list.forEach((c, i) => {
      const n = nextList[i];
      if (isObject(c) && isObject(n)) c['image'] = n['image'];
    });
  }
  mutated['activeDeadlineSeconds'] = nextSpec['activeDeadlineSeconds'];
  // Tolerations: additions only (every old toleration kept).
  const oldTols = Array.isArray(oldSpec['tolerations']) ? oldSpec['tolerations'] : [];
  const nextTols = Array.isArray(nextSpec['tolerations']) ? nextSpec['tolerations'] : [];
  if (oldTols.every((t) => nextTols.some((n) => sameJson(n, t)))) {
    mutated['tolerations'] = nextSpec['tolerations'];
  }
  const oldTgp = oldSpec['terminationGracePeriodSeconds'];
  if (typeof oldTgp === 'number' && oldTgp < 0 && nextSpec['terminationGracePeriodSeconds'] === 1) {
    mutated['terminationGracePeriodSeconds'] = 1;
  }
  // Scheduling gates may only be removed.
  const oldGates = Array.isArray(oldSpec['schedulingGates']) ? oldSpec['schedulingGates'] : [];
  const nextGates = Array.isArray(nextSpec['schedulingGates']) ? nextSpec['schedulingGates'] : [];
  if (nextGates.every((g) => oldGates.some((o) => sameJson(o, g)))) {
    mutated['schedulingGates'] = nextSpec['schedulingGates'];
  }
  const clean = (o: Json): Json =>
    Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
  if (!sameJson(clean(mutated), clean(nextSpec))) {
    errs.push(fieldForbidden(newPath('spec'), podUpdateForbiddenMsg));
  }
  return errs;
}

/**
 * PrepareForCreate: the status a pod starts with, phase Pending and its QoS class (GetPodQOS:
 * one the client set is kept, else computed), and the PodScheduled condition a pod with
 * scheduling gates starts with (applySchedulingGatedCondition).
 */
export function preparePodForCreate(pod: ApiObject): void {
  const given = isObject(pod['status']) ? pod['status']['qosClass'] : undefined;
  const qosClass = typeof given === 'string' && given !== '' ? given : computePodQOS(specOf(pod));
  const status: Json = { phase: 'Pending', qosClass };
  const gates = specOf(pod)['schedulingGates'];
  if (Array.isArray(gates) && gates.length > 0) {
    status['conditions'] = [
      {
        type: 'PodScheduled',
        status: 'False',
        reason: 'SchedulingGated',
        message: 'Scheduling is blocked due to non-empty scheduling gates',
        lastTransitionTime: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
      },
    ];
  }
  pod['status'] = status;
}

export const podStrategy: Strategy = {
  ...defaultStrategy({ hasStatus: true }),
  returnDeletedObject: true,
  prepareForCreate: preparePodForCreate,
  validate: validatePod,
  validateUpdate: validatePodUpdate,
};

/**
 * podStatusStrategy: a status write as every kind's, and the QoS class, set on create and
 * immutable, kept when the write leaves it out (old kubelets dropped it).
 */
export function podStatusStrategy(main: Strategy): Strategy {
  const base = statusStrategy(main);
  return {
    ...base,
    prepareForUpdate(obj, old) {
      base.prepareForUpdate(obj, old);
      const kept = isObject(old['status']) ? old['status']['qosClass'] : undefined;
      if (typeof kept !== 'string' || kept === '') return;
      const status = isObject(obj['status']) ? obj['status'] : (obj['status'] = {});
      if (typeof status['qosClass'] !== 'string' || status['qosClass'] === '')
        status['qosClass'] = kept;
    },
  };
}
