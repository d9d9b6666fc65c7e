// StatefulSets (k8s pkg/registry/apps/statefulset/strategy.go, pkg/apis/apps/validation
// ValidateStatefulSet / ValidateStatefulSetUpdate / ValidateStatefulSetStatus).
import {
  fieldForbidden,
  fieldInvalid,
  fieldNotSupported,
  fieldRequired,
  newPath,
} from '@orch/apimachinery/errors';
import type { FieldError } from '@orch/apimachinery/errors';
import type { ApiObject } from '@orch/apimachinery/meta';
import { sameJson } from '@orch/apimachinery/meta';
import { defaultStrategy } from '../../strategy.js';
import type { Strategy } from '../../strategy.js';
import { intOrPercent } from '../validation.js';
import { validateSelectorAndTemplate } from '../../core/podtemplates/validate-pod-template.js';
import { nonNegative } from '../../core/validation.js';
import { isObject, listAt, objectAt } from '../../unstructured.js';
import { immutable } from '../../validation.js';

const spec = newPath('spec');

export function validateStatefulSetSpec(s: Record<string, unknown>): FieldError[] {
  const errs: FieldError[] = [];
  const policy = s['podManagementPolicy'];
  if (policy === undefined || policy === '')
    errs.push(fieldRequired(spec.child('podManagementPolicy'), ''));
  else if (policy !== 'OrderedReady' && policy !== 'Parallel')
    errs.push(
      fieldInvalid(
        spec.child('podManagementPolicy'),
        policy,
        "must be 'OrderedReady' or 'Parallel'"
      )
    );
  const strategy = objectAt(s, 'updateStrategy');
  const rolling = strategy['rollingUpdate'];
  switch (strategy['type']) {
    case undefined:
    case '':
      errs.push(fieldRequired(spec.child('updateStrategy'), ''));
      break;
    case 'OnDelete':
      if (rolling !== undefined)
        errs.push(
          fieldInvalid(
            spec.child('updateStrategy', 'rollingUpdate'),
            rolling,
            "only allowed for updateStrategy 'RollingUpdate'"
          )
        );
      break;
    case 'RollingUpdate':
      if (isObject(rolling)) {
        const p = spec.child('updateStrategy', 'rollingUpdate');
        errs.push(...nonNegative(rolling['partition'], p.child('partition')));
        errs.push(
          ...intOrPercent(rolling['maxUnavailable'], p.child('maxUnavailable'), { max100: true })
        );
        if (rolling['maxUnavailable'] === 0 || rolling['maxUnavailable'] === '0%')
          errs.push(
            fieldInvalid(
              p.child('maxUnavailable'),
              rolling['maxUnavailable'],
              'must be greater than 0'
            )
          );
      }
      break;
    default:
      errs.push(
        fieldInvalid(
          spec.child('updateStrategy'),
          strategy,
          "must be 'RollingUpdate' or 'OnDelete'"
        )
      );
  }
  const retention = objectAt(s, 'persistentVolumeClaimRetentionPolicy');
  for (const k of ['whenDeleted', 'whenScaled']) {
    const v = retention[k];
    if (v !== undefined && v !== 'Retain' && v !== 'Delete')
      errs.push(
        fieldNotSupported(spec.child('persistentVolumeClaimRetentionPolicy', k), v, [
          'Retain',
          'Delete',
        ])
      );
  }
  errs.push(...nonNegative(objectAt(s, 'ordinals')['start'], spec.child('ordinals', 'start')));
  errs.push(...nonNegative(s['replicas'], spec.child('replicas')));
  errs.push(...nonNegative(s['minReadySeconds'], spec.child('minReadySeconds')));
  errs.push(...nonNegative(s['revisionHistoryLimit'], spec.child('revisionHistoryLimit')));
  errs.push(
    ...validateSelectorAndTemplate(s, spec, {
      emptyInvalidFor: 'statefulset',
      restartPolicies: ['Always'],
      noActiveDeadlineFor: 'StatefulSet',
      podSpecUnchecked: true,
    })
  );
  const names = new Set<string>();
  listAt(s, 'volumeClaimTemplates').forEach((t, i) => {
    const name = objectAt(t, 'metadata')['name'];
    const p = spec.child('volumeClaimTemplates').index(i);
    if (typeof name !== 'string' || name === '')
      errs.push(fieldRequired(p.child('metadata', 'name'), ''));
    else if (names.has(name))
      errs.push({
        type: 'FieldValueDuplicate',
        field: p.child('metadata', 'name').toString(),
        message: '',
        value: name,
      });
    else names.add(name);
  });
  return errs;
}

/** ValidateStatefulSetStatus. */
export function validateStatefulSetStatus(obj: ApiObject): FieldError[] {
  const st = objectAt(obj, 'status');
  const p = newPath('status');
  const errs: FieldError[] = [];
  for (const k of [
    'replicas',
    'readyReplicas',
    'currentReplicas',
    'updatedReplicas',
    'availableReplicas',
    'observedGeneration',
    'collisionCount',
  ])
    errs.push(...nonNegative(st[k], p.child(k)));
  const replicas = typeof st['replicas'] === 'number' ? st['replicas'] : 0;
  for (const k of ['readyReplicas', 'currentReplicas', 'updatedReplicas', 'availableReplicas'])
    if (typeof st[k] === 'number' && st[k] > replicas)
      errs.push(fieldInvalid(p.child(k), st[k], 'cannot be greater than status.replicas'));
  if (
    typeof st['availableReplicas'] === 'number' &&
    st['availableReplicas'] > ((st['readyReplicas'] as number | undefined) ?? 0)
  )
    errs.push(
      fieldInvalid(
        p.child('availableReplicas'),
        st['availableReplicas'],
        'cannot be greater than status.readyReplicas'
      )
    );
  return errs;
}

/** The spec fields a StatefulSet update may change (ValidateStatefulSetUpdate). */
const mutable = [
  'replicas',
  'ordinals',
  'template',
  'updateStrategy',
  'revisionHistoryLimit',
  'persistentVolumeClaimRetentionPolicy',
  'minReadySeconds',
];

export const statefulSetStrategy: Strategy = {
  ...defaultStrategy({ hasStatus: true }),
  validate: (obj) => validateStatefulSetSpec(objectAt(obj, 'spec')),
  validateUpdate(obj, old) {
    const s = objectAt(obj, 'spec');
    const o = objectAt(old, 'spec');
    const errs = [...validateStatefulSetSpec(s), ...validateStatefulSetStatus(obj)];
    errs.push(...immutable(s['selector'], o['selector'], spec.child('selector')));
    const rest = (x: Record<string, unknown>) =>
      Object.fromEntries(
        Object.entries(x).filter(([k]) => !mutable.includes(k) && k !== 'selector')
      );
    if (!sameJson(rest(s), rest(o)))
      errs.push(
        fieldForbidden(
          spec,
          "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden"
        )
      );
    return errs;
  },
};
