// DaemonSets (k8s pkg/registry/apps/daemonset/strategy.go, pkg/apis/apps/validation
// ValidateDaemonSet / ValidateDaemonSetUpdate / ValidateDaemonSetStatusUpdate).
import { fieldInvalid, fieldNotSupported, fieldRequired, newPath } from '@orch/apimachinery/errors';
import type { FieldError } from '@orch/apimachinery/errors';
import type { ApiObject } from '@orch/apimachinery/meta';
import { defaultStrategy } from '../../strategy.js';
import type { Strategy } from '../../strategy.js';
import { intOrPercent, intOrPercentValue } from '../validation.js';
import { validateSelectorAndTemplate } from '../../core/podtemplates/validate-pod-template.js';
import { nonNegative } from '../../core/validation.js';
import { isObject, objectAt } from '../../unstructured.js';
import { immutable } from '../../validation.js';

const spec = newPath('spec');

export function validateDaemonSetSpec(s: Record<string, unknown>): FieldError[] {
  const errs = validateSelectorAndTemplate(s, spec, {
    emptyInvalidFor: 'daemonset',
    restartPolicies: ['Always'],
    noActiveDeadlineFor: 'DaemonSet',
  });
  errs.push(...nonNegative(s['minReadySeconds'], spec.child('minReadySeconds')));
  errs.push(...nonNegative(s['revisionHistoryLimit'], spec.child('revisionHistoryLimit')));
  const strategy = objectAt(s, 'updateStrategy');
  const p = spec.child('updateStrategy');
  const type = strategy['type'];
  if (type === undefined || type === '') errs.push(fieldRequired(p, ''));
  else if (type !== 'RollingUpdate' && type !== 'OnDelete')
    errs.push(fieldNotSupported(p, strategy, ['OnDelete', 'RollingUpdate']));
  const rolling = strategy['rollingUpdate'];
  if (type === 'RollingUpdate' && isObject(rolling)) {
    const rp = p.child('rollingUpdate');
    const unavailable = rolling['maxUnavailable'];
    const surge = rolling['maxSurge'];
    errs.push(...intOrPercent(unavailable, rp.child('maxUnavailable'), { max100: true }));
    errs.push(...intOrPercent(surge, rp.child('maxSurge'), { max100: true }));
    const u = intOrPercentValue(unavailable, 100);
    const sv = intOrPercentValue(surge, 100);
    if (u === 0 && sv === 0)
      errs.push(
        fieldInvalid(
          rp.child('maxUnavailable'),
          unavailable ?? 0,
          'may not be 0 when `maxSurge` is 0'
        )
      );
    if (u !== 0 && sv !== 0)
      errs.push(
        fieldInvalid(rp.child('maxSurge'), surge, 'may not be set when maxUnavailable is non-zero')
      );
  }
  return errs;
}

/** ValidateDaemonSetStatus. */
export function validateDaemonSetStatus(obj: ApiObject): FieldError[] {
  const st = objectAt(obj, 'status');
  const p = newPath('status');
  const errs: FieldError[] = [];
  for (const k of [
    'currentNumberScheduled',
    'numberMisscheduled',
    'desiredNumberScheduled',
    'numberReady',
    'observedGeneration',
    'updatedNumberScheduled',
    'numberAvailable',
    'numberUnavailable',
    'collisionCount',
  ])
    errs.push(...nonNegative(st[k], p.child(k)));
  return errs;
}

export const daemonSetStrategy: Strategy = {
  ...defaultStrategy({ hasStatus: true }),
  validate: (obj) => validateDaemonSetSpec(objectAt(obj, 'spec')),
  validateUpdate: (obj, old) => [
    ...validateDaemonSetSpec(objectAt(obj, 'spec')),
    ...immutable(
      objectAt(obj, 'spec')['selector'],
      objectAt(old, 'spec')['selector'],
      spec.child('selector')
    ),
    ...validateDaemonSetStatus(obj),
  ],
};
