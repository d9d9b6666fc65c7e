// CSIStorageCapacities (k8s pkg/registry/storage/csistoragecapacity/strategy.go,
// pkg/apis/storage/validation ValidateCSIStorageCapacity / ValidateCSIStorageCapacityUpdate): a
// storage class name, a valid nodeTopology selector, non-negative capacity and maximum volume
// size; nodeTopology and storageClassName immutable.
import { fieldInvalid, fieldRequired, newPath } from '@orch/apimachinery/errors';
import type { FieldError } from '@orch/apimachinery/errors';
import type { ApiObject } from '@orch/apimachinery/meta';
import { isDNS1123Subdomain } from '@orch/apimachinery/meta';
import { validateLabelSelector } from '../../admissionregistration/validate-label-selector.js';
import { defaultStrategy } from '../../strategy.js';
import type { Strategy } from '../../strategy.js';
import { nonNegativeQuantity } from '../../core/validation.js';
import { str } from '../../unstructured.js';
import { immutable } from '../../validation.js';

/** ValidateCSIStorageCapacity. */
export function validateCSIStorageCapacity(c: ApiObject): FieldError[] {
  const errs = validateLabelSelector(c['nodeTopology'], {}, newPath('nodeTopology'));
  const name = str(c['storageClassName']);
  if (!name) errs.push(fieldRequired(newPath('storageClassName'), ''));
  else
    for (const m of isDNS1123Subdomain(name))
      errs.push(fieldInvalid(newPath('storageClassName'), name, m));
  errs.push(...nonNegativeQuantity(c['capacity'], newPath('capacity')));
  errs.push(...nonNegativeQuantity(c['maximumVolumeSize'], newPath('maximumVolumeSize')));
  return errs;
}

export const csiStorageCapacityStrategy: Strategy = {
  ...defaultStrategy({ hasStatus: false }),
  validate: validateCSIStorageCapacity,
  validateUpdate: (next, old) => [
    ...validateCSIStorageCapacity(next),
    ...immutable(next['nodeTopology'], old['nodeTopology'], newPath('nodeTopology')),
    ...immutable(next['storageClassName'], old['storageClassName'], newPath('storageClassName')),
  ],
};
