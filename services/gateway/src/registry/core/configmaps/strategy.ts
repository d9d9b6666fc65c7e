// ConfigMaps (k8s pkg/registry/core/configmap/strategy.go, pkg/apis/core/validation
// ValidateConfigMap / ValidateConfigMapUpdate): config keys, a key in only one of data and
// binaryData, 1 MiB in all; `immutable` ConfigMaps keep their data and cannot become mutable.
import { fieldForbidden, fieldInvalid, fieldTooLong, newPath } from '@orch/apimachinery/errors';
import type { FieldError } from '@orch/apimachinery/errors';
import type { ApiObject } from '@orch/apimachinery/meta';
import { sameJson } from '@orch/apimachinery/meta';
import { defaultStrategy } from '../../strategy.js';
import type { Strategy } from '../../strategy.js';
import { obj, str } from '../../unstructured.js';
import { isConfigMapKey } from '../../validation.js';
import { immutableWhenSetMsg, maxSecretSize } from '../secrets/strategy.js';

/** ValidateConfigMap. */
export function validateConfigMap(cm: ApiObject): FieldError[] {
  const errs: FieldError[] = [];
  const data = obj(cm['data']);
  let total = 0;
  for (const [key, value] of Object.entries(data)) {
    for (const msg of isConfigMapKey(key))
      errs.push(fieldInvalid(newPath('data').key(key), key, msg));
    total += Buffer.byteLength(str(value));
  }
  for (const [key, value] of Object.entries(obj(cm['binaryData']))) {
    const p = newPath('binaryData').key(key);
    for (const msg of isConfigMapKey(key)) errs.push(fieldInvalid(p, key, msg));
    total += Buffer.from(str(value), 'base64').length;
    if (key in data) errs.push(fieldInvalid(p, key, 'duplicate key in both data and binaryData'));
  }
  if (total > maxSecretSize) errs.push(fieldTooLong('data', maxSecretSize));
  return errs;
}

/** ValidateConfigMapUpdate. */
export function validateConfigMapUpdate(next: ApiObject, old: ApiObject): FieldError[] {
  const errs: FieldError[] = [];
  if (old['immutable'] === true) {
    if (next['immutable'] !== true)
      errs.push(fieldForbidden(newPath('immutable'), immutableWhenSetMsg));
    if (!sameJson(next['data'] ?? {}, old['data'] ?? {}))
      errs.push(fieldForbidden(newPath('data'), immutableWhenSetMsg));
    if (!sameJson(next['binaryData'] ?? {}, old['binaryData'] ?? {}))
      errs.push(fieldForbidden(newPath('binaryData'), immutableWhenSetMsg));
  }
  return [...errs, ...validateConfigMap(next)];
}

export const configMapStrategy: Strategy = {
  ...defaultStrategy({ hasStatus: false }),
  validate: validateConfigMap,
  validateUpdate: validateConfigMapUpdate,
};
