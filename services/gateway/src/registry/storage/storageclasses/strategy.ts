// StorageClasses (k8s pkg/registry/storage/storageclass/strategy.go, pkg/apis/storage/validation
// ValidateStorageClass / ValidateStorageClassUpdate): a qualified provisioner name, parameters
// under 256 KiB, reclaimPolicy Delete or Retain, volumeBindingMode Immediate or
// WaitForFirstConsumer; parameters, provisioner, reclaimPolicy and volumeBindingMode immutable.
import {
  fieldForbidden,
  fieldInvalid,
  fieldNotSupported,
  fieldRequired,
  newPath,
} from '@orch/apimachinery/errors';
import type { FieldError } from '@orch/apimachinery/errors';
import type { ApiObject } from '@orch/apimachinery/meta';
import { isQualifiedName, sameJson } from '@orch/apimachinery/meta';
import { defaultStrategy } from '../../strategy.js';
import type { Strategy } from '../../strategy.js';
import { list, obj, str } from '../../unstructured.js';
import { immutable } from '../../validation.js';
import { validateParameters, validateProvisioner } from '../validation.js';

const reclaimPolicies = ['Delete', 'Retain'];
const bindingModes = ['Immediate', 'WaitForFirstConsumer'];

/** ValidateStorageClass. */
export function validateStorageClass(sc: ApiObject): FieldError[] {
  const errs: FieldError[] = [];
  errs.push(...validateProvisioner(str(sc['provisioner']), newPath('provisioner')));
  errs.push(...validateParameters(sc['parameters'], true, newPath('parameters')));
  const policy = sc['reclaimPolicy'];
  if (policy !== undefined && !reclaimPolicies.includes(String(policy)))
    errs.push(fieldNotSupported(newPath('reclaimPolicy'), policy, reclaimPolicies));
  const mode = sc['volumeBindingMode'];
  if (mode === undefined || mode === '') errs.push(fieldRequired(newPath('volumeBindingMode'), ''));
  else if (!bindingModes.includes(String(mode)))
    errs.push(fieldNotSupported(newPath('volumeBindingMode'), mode, bindingModes));
  list(sc['allowedTopologies']).forEach((t, i) => {
    const exprs = list(obj(t)['matchLabelExpressions']);
    const p = newPath('allowedTopologies').index(i).child('matchLabelExpressions');
    if (exprs.length === 0)
      errs.push(fieldRequired(p, 'must have at least one label selector requirement'));
    exprs.forEach((e, j) => {
      const req = obj(e);
      const key = str(req['key']);
      for (const m of isQualifiedName(key))
        errs.push(fieldInvalid(p.index(j).child('key'), key, m));
      if (list(req['values']).length === 0)
        errs.push(fieldRequired(p.index(j).child('values'), 'must specify as least one value'));
    });
  });
  return errs;
}

/** ValidateStorageClassUpdate. */
export function validateStorageClassUpdate(next: ApiObject, old: ApiObject): FieldError[] {
  const errs = validateStorageClass(next);
  if (!sameJson(next['parameters'] ?? {}, old['parameters'] ?? {}))
    errs.push(fieldForbidden(newPath('parameters'), 'updates to parameters are forbidden.'));
  if (next['provisioner'] !== old['provisioner'])
    errs.push(fieldForbidden(newPath('provisioner'), 'updates to provisioner are forbidden.'));
  if ((next['reclaimPolicy'] ?? 'Delete') !== (old['reclaimPolicy'] ?? 'Delete'))
    errs.push(fieldForbidden(newPath('reclaimPolicy'), 'updates to reclaimPolicy are forbidden.'));
  errs.push(
    ...immutable(next['volumeBindingMode'], old['volumeBindingMode'], newPath('volumeBindingMode'))
  );
  return errs;
}

export const storageClassStrategy: Strategy = {
  ...defaultStrategy({ hasStatus: false }),
  returnDeletedObject: true,
  validate: validateStorageClass,
  validateUpdate: validateStorageClassUpdate,
};
