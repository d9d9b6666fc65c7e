// PersistentVolumeClaims (k8s pkg/registry/core/persistentvolumeclaim/strategy.go,
// pkg/apis/core/validation ValidatePersistentVolumeClaim / ValidatePersistentVolumeClaimUpdate):
// names are path segments; born Pending; a storage request above zero; the spec is immutable
// after creation except the bound claim's resources.requests (expansion, never below
// status.capacity) and volumeAttributesClassName, and volumeName, which binding sets once. The
// storage request's path is `spec.resources.requests[storage]` (upstream: `spec.resources[storage]`).
import { fieldForbidden, fieldInvalid, fieldRequired, newPath } from '@orch/apimachinery/errors';
import type { FieldError } from '@orch/apimachinery/errors';
import type { ApiObject } from '@orch/apimachinery/meta';
import { sameJson } from '@orch/apimachinery/meta';
import { validateLabelSelector } from '../../admissionregistration/validate-label-selector.js';
import { defaultStrategy } from '../../strategy.js';
import type { Strategy } from '../../strategy.js';
import { isObject, obj, str } from '../../unstructured.js';
import { quantityValue } from '../../validation.js';
import {
  validateAccessModes,
  validateStorageClassName,
  validateVolumeMode,
} from '../persistentvolumes/validate-volume.js';

function validateDataSource(ds: unknown, path: ReturnType<typeof newPath>): FieldError[] {
  if (!isObject(ds)) return [];
  const errs: FieldError[] = [];
  if (!str(ds['name'])) errs.push(fieldRequired(path.child('name'), ''));
  if (!str(ds['kind'])) errs.push(fieldRequired(path.child('kind'), ''));
  if (!str(ds['apiGroup']) && str(ds['kind']) && ds['kind'] !== 'PersistentVolumeClaim')
    errs.push(
      fieldInvalid(
        path.child('kind'),
        ds['kind'],
        "must be 'PersistentVolumeClaim' when referencing the default apiGroup"
      )
    );
  return errs;
}

/** ValidatePersistentVolumeClaim. */
export function validatePersistentVolumeClaim(pvc: ApiObject): FieldError[] {
  const spec = obj(pvc['spec']);
  const path = newPath('spec');
  const errs = validateAccessModes(
    spec['accessModes'],
    path.child('accessModes'),
    'at least 1 access mode is required'
  );
  errs.push(...validateLabelSelector(spec['selector'], {}, path.child('selector')));
  const storagePath = path.child('resources', 'requests').key('storage');
  const requests = obj(obj(spec['resources'])['requests']);
  if (!('storage' in requests)) errs.push(fieldRequired(storagePath, ''));
  else {
    const v = quantityValue(requests['storage']);
    if (v !== undefined && v <= 0)
      errs.push(fieldInvalid(storagePath, requests['storage'], 'must be greater than zero'));
  }
  errs.push(...validateStorageClassName(spec['storageClassName'], path.child('storageClassName')));
  errs.push(...validateVolumeMode(spec['volumeMode'], path.child('volumeMode')));
  errs.push(...validateDataSource(spec['dataSource'], path.child('dataSource')));
  errs.push(...validateDataSource(spec['dataSourceRef'], path.child('dataSourceRef')));
  return errs;
}

/** ValidatePersistentVolumeClaimUpdate. */
export function validatePersistentVolumeClaimUpdate(next: ApiObject, old: ApiObject): FieldError[] {
  const errs = validatePersistentVolumeClaim(next);
  const spec = structuredClone(obj(next['spec']));
  const oldSpec = structuredClone(obj(old['spec']));
  // binding sets volumeName once
  if (!str(oldSpec['volumeName'])) oldSpec['volumeName'] = spec['volumeName'];
  if (oldSpec['volumeName'] === undefined) delete oldSpec['volumeName'];
  const bound = str(obj(old['spec'])['volumeName']) !== '';
  if (bound) {
    const newReq = obj(obj(spec['resources'])['requests'])['storage'];
    const capacity = obj(obj(old['status'])['capacity'])['storage'];
    const n = quantityValue(newReq);
    const c = quantityValue(capacity);
    if (n !== undefined && c !== undefined && n < c)
      errs.push(
        fieldForbidden(
          newPath('spec', 'resources', 'requests', 'storage'),
          'field can not be less than status.capacity'
        )
      );
    spec['resources'] = oldSpec['resources'];
  }
  spec['volumeAttributesClassName'] = oldSpec['volumeAttributesClassName'];
  if (spec['volumeAttributesClassName'] === undefined) delete spec['volumeAttributesClassName'];
  if (!sameJson(spec, oldSpec))
    errs.push(
      fieldForbidden(
        newPath('spec'),
        'spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims'
      )
    );
  return errs;
}

const base = defaultStrategy({ hasStatus: true });

export const persistentVolumeClaimStrategy: Strategy = {
  ...base,
  nameRule: 'path-segment',
  prepareForCreate(pvc) {
    // upstream clears status; reading it back defaults the phase to Pending
    pvc['status'] = { phase: 'Pending' };
  },
  validate: validatePersistentVolumeClaim,
  validateUpdate: validatePersistentVolumeClaimUpdate,
};
