// PriorityClasses (k8s pkg/registry/scheduling/priorityclass/strategy.go, pkg/apis/scheduling/
// validation ValidatePriorityClass / ValidatePriorityClassUpdate): names with the `system-`
// prefix and values above 1e9 are for the system classes only; preemptionPolicy Never or
// PreemptLowerPriority; value and preemptionPolicy never change.
import { fieldForbidden, fieldNotSupported, newPath } from '@orch/apimachinery/errors';
import type { FieldError } from '@orch/apimachinery/errors';
import type { ApiObject } from '@orch/apimachinery/meta';
import { defaultStrategy } from '../../strategy.js';
import type { Strategy } from '../../strategy.js';
import { str } from '../../unstructured.js';
import { immutable } from '../../validation.js';

export const highestUserDefinablePriority = 1000000000;
export const systemCriticalPriority = 2 * highestUserDefinablePriority;
export const systemPriorityClassPrefix = 'system-';

/** The system priority classes (k8s pkg/apis/scheduling SystemPriorityClasses). */
export const systemPriorityClasses: readonly ApiObject[] = [
  {
    apiVersion: 'scheduling.orch.io/v1',
    kind: 'PriorityClass',
    metadata: { name: 'system-node-critical' },
    value: systemCriticalPriority + 1000,
    description: 'Used for system critical pods that must not be moved from their current node.',
  },
  {
    apiVersion: 'scheduling.orch.io/v1',
    kind: 'PriorityClass',
    metadata: { name: 'system-cluster-critical' },
    value: systemCriticalPriority,
    description:
      'Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.',
  },
];

/** IsKnownSystemPriorityClass: a system name with its own value, never the global default. */
function isKnownSystemPriorityClass(pc: ApiObject): boolean {
  const known = systemPriorityClasses.find((s) => s.metadata.name === pc.metadata.name);
  return known !== undefined && known['value'] === pc['value'] && pc['globalDefault'] !== true;
}

const preemptionPolicies = ['Never', 'PreemptLowerPriority'];

/** ValidatePriorityClass. */
export function validatePriorityClass(pc: ApiObject): FieldError[] {
  const errs: FieldError[] = [];
  if (!isKnownSystemPriorityClass(pc)) {
    if (str(pc.metadata.name).startsWith(systemPriorityClassPrefix))
      errs.push(
        fieldForbidden(
          newPath('metadata', 'name'),
          `priority class names with '${systemPriorityClassPrefix}' prefix are reserved for system use only`
        )
      );
    if (typeof pc['value'] === 'number' && pc['value'] > highestUserDefinablePriority)
      errs.push(
        fieldForbidden(
          newPath('value'),
          `maximum allowed value of a user defined priority is ${highestUserDefinablePriority}`
        )
      );
  }
  const policy = pc['preemptionPolicy'];
  if (policy !== undefined && !preemptionPolicies.includes(String(policy)))
    errs.push(fieldNotSupported(newPath('preemptionPolicy'), policy, preemptionPolicies));
  return errs;
}

/** ValidatePriorityClassUpdate. */
export function validatePriorityClassUpdate(next: ApiObject, old: ApiObject): FieldError[] {
  const errs: FieldError[] = [];
  if (next['value'] !== old['value'])
    errs.push(fieldForbidden(newPath('value'), 'may not be changed in an update.'));
  errs.push(
    ...immutable(next['preemptionPolicy'], old['preemptionPolicy'], newPath('preemptionPolicy'))
  );
  return [...validatePriorityClass(next), ...errs];
}

export const priorityClassStrategy: Strategy = {
  ...defaultStrategy({ hasStatus: false }),
  validate: validatePriorityClass,
  validateUpdate: validatePriorityClassUpdate,
};
