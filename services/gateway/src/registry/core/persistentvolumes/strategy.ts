// PersistentVolumes (k8s pkg/registry/core/persistentvolume/strategy.go, pkg/apis/core/validation
// ValidatePersistentVolume / ValidatePersistentVolumeUpdate): names are path segments; born
// Pending with their phase transition time; one volume source, immutable after creation, as
// are volumeMode and a set nodeAffinity; status through the status subresource. Field paths name
// real fields where upstream's do not (upstream: `spec.persistentvolumesource`, `volumeMode`).
import {
  fieldForbidden,
  fieldNotSupported,
  fieldRequired,
  newPath,
} from '@orch/apimachinery/errors';
import type { FieldError } from '@orch/apimachinery/errors';
import type { ApiObject } from '@orch/apimachinery/meta';
import { formatTimestamp, sameJson } from '@orch/apimachinery/meta';
import { defaultStrategy } from '../../strategy.js';
import type { Strategy } from '../../strategy.js';
import { isObject, obj } from '../../unstructured.js';
import { immutable, quantityValue } from '../../validation.js';
import {
  persistentVolumeSources,
  validateAccessModes,
  validatePersistentVolumeSource,
  validateStorageClassName,
  validateVolumeMode,
} from './validate-volume.js';

const reclaimPolicies = ['Delete', 'Recycle', 'Retain'];
const phases = ['Available', 'Bound', 'Failed', 'Pending', 'Released'];

/** ValidatePersistentVolume. */
export function validatePersistentVolume(pv: ApiObject): FieldError[] {
  const spec = obj(pv['spec']);
  const path = newPath('spec');
  const errs = validateAccessModes(
    spec['accessModes'],
    path.child('accessModes'),
    'must specify at least 1 access mode'
  );
  const capacity = obj(spec['capacity']);
  if (Object.keys(capacity).length === 0) errs.push(fieldRequired(path.child('capacity'), ''));
  else if (!('storage' in capacity) || Object.keys(capacity).length > 1)
    errs.push(fieldNotSupported(path.child('capacity'), capacity, ['storage']));
  else {
    const v = quantityValue(capacity['storage']);
    if (v !== undefined && v <= 0)
      errs.push({
        type: 'FieldValueInvalid',
        field: path.child('capacity').key('storage').toString(),
        message: 'must be greater than zero',
        value: capacity['storage'],
      });
  }
  const policy = spec['persistentVolumeReclaimPolicy'];
  if (policy !== undefined && !reclaimPolicies.includes(String(policy)))
    errs.push(
      fieldNotSupported(path.child('persistentVolumeReclaimPolicy'), policy, reclaimPolicies)
    );
  errs.push(...validateStorageClassName(spec['storageClassName'], path.child('storageClassName')));
  errs.push(...validateVolumeMode(spec['volumeMode'], path.child('volumeMode')));
  errs.push(...validatePersistentVolumeSource(spec, path));
  const phase = obj(pv['status'])['phase'];
  if (phase !== undefined && !phases.includes(String(phase)))
    errs.push(fieldNotSupported(newPath('status', 'phase'), phase, phases));
  return errs;
}

const sourceOf = (spec: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(persistentVolumeSources.filter((s) => s in spec).map((s) => [s, spec[s]]));

/** ValidatePersistentVolumeUpdate. */
export function validatePersistentVolumeUpdate(next: ApiObject, old: ApiObject): FieldError[] {
  const errs = validatePersistentVolume(next);
  const spec = obj(next['spec']);
  const oldSpec = obj(old['spec']);
  if (!sameJson(sourceOf(spec), sourceOf(oldSpec)))
    errs.push(
      fieldForbidden(newPath('spec'), 'spec.persistentvolumesource is immutable after creation')
    );
  errs.push(...immutable(spec['volumeMode'], oldSpec['volumeMode'], newPath('spec', 'volumeMode')));
  if (isObject(oldSpec['nodeAffinity']))
    errs.push(
      ...immutable(spec['nodeAffinity'], oldSpec['nodeAffinity'], newPath('spec', 'nodeAffinity'))
    );
  return errs;
}

const base = defaultStrategy({ hasStatus: true });

export const persistentVolumeStrategy: Strategy = {
  ...base,
  nameRule: 'path-segment',
  prepareForCreate(pv) {
    pv['status'] = { phase: 'Pending', lastPhaseTransitionTime: formatTimestamp(new Date()) };
  },
  validate: validatePersistentVolume,
  validateUpdate: validatePersistentVolumeUpdate,
};
