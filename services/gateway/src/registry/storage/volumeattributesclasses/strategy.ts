// VolumeAttributesClasses (k8s pkg/registry/storage/volumeattributesclass/strategy.go,
// pkg/apis/storage/validation ValidateVolumeAttributesClass / ValidateVolumeAttributesClassUpdate):
// a qualified driver name and at least one parameter; both immutable.
import { fieldForbidden, newPath } from '@orch/apimachinery/errors';
import type { FieldError } from '@orch/apimachinery/errors';
import type { ApiObject } from '@orch/apimachinery/meta';
import { sameJson } from '@orch/apimachinery/meta';
import { defaultStrategy } from '../../strategy.js';
import type { Strategy } from '../../strategy.js';
import { str } from '../../unstructured.js';
import { validateParameters, validateProvisioner } from '../validation.js';

/** ValidateVolumeAttributesClass. */
export function validateVolumeAttributesClass(vac: ApiObject): FieldError[] {
  return [
    ...validateProvisioner(str(vac['driverName']), newPath('driverName')),
    ...validateParameters(vac['parameters'], false, newPath('parameters')),
  ];
}

/** ValidateVolumeAttributesClassUpdate: the immutable fields first, then the whole object. */
export function validateVolumeAttributesClassUpdate(next: ApiObject, old: ApiObject): FieldError[] {
  const errs: FieldError[] = [];
  if (str(next['driverName']) !== str(old['driverName']))
    errs.push(fieldForbidden(newPath('driverName'), 'updates to driverName are forbidden.'));
  if (!sameJson(next['parameters'] ?? {}, old['parameters'] ?? {}))
    errs.push(fieldForbidden(newPath('parameters'), 'updates to parameters are forbidden.'));
  return [...errs, ...validateVolumeAttributesClass(next)];
}

export const volumeAttributesClassStrategy: Strategy = {
  ...defaultStrategy({ hasStatus: false }),
  validate: validateVolumeAttributesClass,
  validateUpdate: validateVolumeAttributesClassUpdate,
};
