// The storage group's shared field rules (k8s pkg/apis/storage/validation): validateProvisioner
// for a StorageClass's provisioner and a VolumeAttributesClass's driverName, validateParameters
// for their parameters.
import { fieldInvalid, fieldRequired, fieldTooLong } from '@orch/apimachinery/errors';
import type { FieldError, FieldPath } from '@orch/apimachinery/errors';
import { isQualifiedName } from '@orch/apimachinery/meta';
import { obj, str } from '../unstructured.js';

export const maxProvisionerParameterSize = 256 * 1024;
export const maxProvisionerParameterLen = 512;

/** validateProvisioner: required, a qualified name once lower-cased. */
export function validateProvisioner(provisioner: string, path: FieldPath): FieldError[] {
  if (provisioner === '') return [fieldRequired(path, '')];
  const errs: FieldError[] = [];
  if (provisioner.length > maxProvisionerParameterLen)
    errs.push(fieldTooLong(path, maxProvisionerParameterLen));
  for (const m of isQualifiedName(provisioner.toLowerCase()))
    errs.push(fieldInvalid(path, provisioner, m));
  return errs;
}

/**
 * validateParameters: at most 512 keys, none empty, keys and values under 256 KiB together;
 * when `allowEmpty` is false, at least one.
 */
export function validateParameters(
  parameters: unknown,
  allowEmpty: boolean,
  path: FieldPath
): FieldError[] {
  const entries = Object.entries(obj(parameters));
  if (entries.length > maxProvisionerParameterLen)
    return [fieldTooLong(path, maxProvisionerParameterLen)];
  const errs: FieldError[] = [];
  let size = 0;
  for (const [k, v] of entries) {
    if (k === '') errs.push(fieldInvalid(path, k, 'field can not be empty.'));
    size += k.length + str(v).length;
  }
  if (size > maxProvisionerParameterSize)
    errs.push(fieldTooLong(path, maxProvisionerParameterSize));
  if (!allowEmpty && entries.length === 0)
    errs.push(fieldRequired(path, 'must contain at least one key/value pair'));
  return errs;
}
