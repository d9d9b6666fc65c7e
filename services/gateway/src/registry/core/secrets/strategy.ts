// Secrets (k8s pkg/registry/core/secret/strategy.go, pkg/apis/core/v1 conversion and
// pkg/apis/core/validation ValidateSecret / ValidateSecretUpdate): `stringData` is merged into
// `data` on every write and never stored; each type's required keys; `immutable` secrets keep
// their data and cannot become mutable again; the type cannot change.
import {
  fieldForbidden,
  fieldInvalid,
  fieldRequired,
  fieldTooLong,
  newPath,
} from '@orch/apimachinery/errors';
import type { FieldError } from '@orch/apimachinery/errors';
import type { ApiObject } from '@orch/apimachinery/meta';
import { sameJson } from '@orch/apimachinery/meta';
import { defaultStrategy } from '../../strategy.js';
import type { Strategy } from '../../strategy.js';
import { isObject, obj, str } from '../../unstructured.js';
import { immutable, isConfigMapKey } from '../../validation.js';

/** core.MaxSecretSize: the data of a Secret or ConfigMap, 1 MiB. */
export const maxSecretSize = 1024 * 1024;

export const immutableWhenSetMsg = 'field is immutable when `immutable` is set';

/**
 * The v1 → internal conversion of a Secret: each stringData value, UTF-8 encoded, replaces the
 * data entry of the same key; stringData itself is dropped.
 */
export function mergeStringData(secret: ApiObject): void {
  const stringData = secret['stringData'];
  if (stringData === undefined) return;
  delete secret['stringData'];
  if (!isObject(stringData) || Object.keys(stringData).length === 0) return;
  const data = { ...obj(secret['data']) };
  for (const [k, v] of Object.entries(stringData))
    data[k] = Buffer.from(str(v), 'utf8').toString('base64');
  secret['data'] = data;
}

const decoded = (v: unknown): Buffer => Buffer.from(str(v), 'base64');

function validateType(secret: ApiObject): FieldError[] {
  const data = obj(secret['data']);
  const dataPath = newPath('data');
  const errs: FieldError[] = [];
  const requireKey = (key: string): void => {
    if (!(key in data)) errs.push(fieldRequired(dataPath.key(key), ''));
  };
  const requireJson = (key: string): void => {
    if (!(key in data)) return requireKey(key);
    try {
      JSON.parse(decoded(data[key]).toString('utf8'));
    } catch (err) {
      errs.push(
        fieldInvalid(dataPath.key(key), '<secret contents redacted>', (err as Error).message)
      );
    }
  };
  switch (str(secret['type'])) {
    case 'kubernetes.io/service-account-token': {
      const annotations = obj(secret.metadata.annotations);
      const key = 'kubernetes.io/service-account.name';
      if (!str(annotations[key]))
        errs.push(fieldRequired(newPath('metadata', 'annotations').key(key), ''));
      break;
    }
    case 'kubernetes.io/dockercfg':
      requireJson('.dockercfg');
      break;
    case 'kubernetes.io/dockerconfigjson':
      requireJson('.dockerconfigjson');
      break;
    case 'kubernetes.io/basic-auth':
      // at least one of username and password
      if (!decoded(data['username']).length && !decoded(data['password']).length) {
        errs.push(fieldRequired(dataPath.key('username'), ''));
        errs.push(fieldRequired(dataPath.key('password'), ''));
      }
      break;
    case 'kubernetes.io/ssh-auth':
      if (!decoded(data['ssh-privatekey']).length)
        errs.push(fieldRequired(dataPath.key('ssh-privatekey'), ''));
      break;
    case 'kubernetes.io/tls':
      requireKey('tls.crt');
      requireKey('tls.key');
      break;
    default:
  }
  return errs;
}

/** ValidateSecret (after stringData was merged). */
export function validateSecret(secret: ApiObject): FieldError[] {
  const errs: FieldError[] = [];
  let total = 0;
  for (const [key, value] of Object.entries(obj(secret['data']))) {
    for (const msg of isConfigMapKey(key))
      errs.push(fieldInvalid(newPath('data').key(key), key, msg));
    total += decoded(value).length;
  }
  if (total > maxSecretSize) errs.push(fieldTooLong(newPath('data'), maxSecretSize));
  return [...errs, ...validateType(secret)];
}

/** ValidateSecretUpdate. */
export function validateSecretUpdate(next: ApiObject, old: ApiObject): FieldError[] {
  const errs = immutable(next['type'] ?? 'Opaque', old['type'] ?? 'Opaque', newPath('type'));
  if (old['immutable'] === true) {
    if (next['immutable'] !== true)
      errs.push(fieldForbidden(newPath('immutable'), immutableWhenSetMsg));
    if (!sameJson(next['data'] ?? {}, old['data'] ?? {}))
      errs.push(fieldForbidden(newPath('data'), immutableWhenSetMsg));
  }
  return [...errs, ...validateSecret(next)];
}

const base = defaultStrategy({ hasStatus: false });

export const secretStrategy: Strategy = {
  ...base,
  prepareForCreate(secret) {
    mergeStringData(secret);
  },
  prepareForUpdate(secret) {
    mergeStringData(secret);
  },
  validate: validateSecret,
  validateUpdate: validateSecretUpdate,
};
