// PodDisruptionBudgets (k8s pkg/registry/policy/poddisruptionbudget/strategy.go,
// pkg/apis/policy/validation ValidatePodDisruptionBudget / ...StatusUpdate): minAvailable or
// maxUnavailable (not both) as a non-negative number or a percentage up to 100%, a valid
// selector, a supported unhealthy pod eviction policy; a mutable spec.
import { fieldInvalid, fieldNotSupported, newPath } from '@orch/apimachinery/errors';
import type { FieldError } from '@orch/apimachinery/errors';
import type { ApiObject } from '@orch/apimachinery/meta';
import { defaultStrategy } from '../../strategy.js';
import type { Strategy } from '../../strategy.js';
import { validateLabelSelector } from '../../admissionregistration/validate-label-selector.js';
import { intOrPercent } from '../../apps/validation.js';
import { nonNegative } from '../../core/validation.js';
import { objectAt } from '../../unstructured.js';

export function validatePodDisruptionBudget(obj: ApiObject): FieldError[] {
  const s = objectAt(obj, 'spec');
  const p = newPath('spec');
  const errs: FieldError[] = [];
  if (s['minAvailable'] != null && s['maxUnavailable'] != null)
    errs.push(fieldInvalid(p, s, 'minAvailable and maxUnavailable cannot be both set'));
  errs.push(...intOrPercent(s['minAvailable'], p.child('minAvailable'), { max100: true }));
  errs.push(...intOrPercent(s['maxUnavailable'], p.child('maxUnavailable'), { max100: true }));
  errs.push(...validateLabelSelector(s['selector'], {}, p.child('selector')));
  const policy = s['unhealthyPodEvictionPolicy'];
  if (policy != null && policy !== 'AlwaysAllow' && policy !== 'IfHealthyBudget')
    errs.push(
      fieldNotSupported(p.child('unhealthyPodEvictionPolicy'), policy, [
        'AlwaysAllow',
        'IfHealthyBudget',
      ])
    );
  const st = objectAt(obj, 'status');
  for (const k of [
    'disruptionsAllowed',
    'currentHealthy',
    'desiredHealthy',
    'expectedPods',
    'observedGeneration',
  ])
    errs.push(...nonNegative(st[k], newPath('status').child(k)));
  return errs;
}

export const podDisruptionBudgetStrategy: Strategy = {
  ...defaultStrategy({ hasStatus: true }),
  validate: validatePodDisruptionBudget,
  validateUpdate: validatePodDisruptionBudget,
};
