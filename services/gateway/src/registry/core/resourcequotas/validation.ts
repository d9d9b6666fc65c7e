// ResourceQuota validation (k8s pkg/apis/core/validation ValidateResourceQuota,
// ValidateResourceQuotaUpdate, validateResourceQuotaScopes, validateScopeSelector): resource
// names, non-negative (and for counts, whole) quantities, scopes valid for the limited
// resources and not in conflict, scope selector operators and values; scopes are immutable.
import { fieldInvalid, fieldRequired, newPath } from '@orch/apimachinery/errors';
import type { FieldError, FieldPath } from '@orch/apimachinery/errors';
import type { ApiObject } from '@orch/apimachinery/meta';
import { sameJson } from '@orch/apimachinery/meta';
import { milliValue, parseQuantity } from '@orch/apimachinery/quota';
import {
  isIntegerResourceName,
  isStandardQuotaResourceName,
  validateResourceName,
} from '../resource-names.js';

type Json = Record<string, unknown>;

export const standardScopes = [
  'Terminating',
  'NotTerminating',
  'BestEffort',
  'NotBestEffort',
  'PriorityClass',
  'CrossNamespacePodAffinity',
];

const podComputeResources = new Set([
  'cpu',
  'memory',
  'limits.cpu',
  'limits.memory',
  'requests.cpu',
  'requests.memory',
]);

/** IsResourceQuotaScopeValidForResource. */
function scopeValidForResource(scope: string, resource: string): boolean {
  switch (scope) {
    case 'Terminating':
    case 'NotTerminating':
    case 'NotBestEffort':
    case 'PriorityClass':
    case 'CrossNamespacePodAffinity':
      return resource === 'pods' || podComputeResources.has(resource);
    case 'BestEffort':
      return resource === 'pods';
    default:
      return true;
  }
}

const conflictingPairs = [
  ['BestEffort', 'NotBestEffort'],
  ['Terminating', 'NotTerminating'],
];

/** ValidateResourceQuotaResourceName. */
function validateQuotaResourceName(name: string, path: FieldPath): FieldError[] {
  const errs = validateResourceName(name, path);
  if (!name.includes('/') && !isStandardQuotaResourceName(name)) {
    errs.push(fieldInvalid(path, name, 'must be a standard resource for quota'));
  }
  return errs;
}

/** ValidateResourceQuantityValue: non-negative, whole for the counted resources. */
function validateQuantityValue(name: string, value: unknown, path: FieldPath): FieldError[] {
  const q = typeof value === 'string' ? parseQuantity(value) : undefined;
  if (!q) return [fieldInvalid(path, value, 'must be a quantity')];
  if (q.nano < 0n) return [fieldInvalid(path, value, 'must be greater than or equal to 0')];
  if (isIntegerResourceName(name) && milliValue(q) % 1000n !== 0n) {
    return [fieldInvalid(path, value, 'must be an integer')];
  }
  return [];
}

function validateResourceList(list: unknown, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  for (const [k, v] of Object.entries((list ?? {}) as Json)) {
    const p = path.key(k);
    errs.push(...validateQuotaResourceName(k, p), ...validateQuantityValue(k, v, p));
  }
  return errs;
}

function validateScopes(spec: Json, path: FieldPath): FieldError[] {
  const scopes = (spec['scopes'] as string[] | undefined) ?? [];
  if (scopes.length === 0) return [];
  const errs: FieldError[] = [];
  const hard = Object.keys((spec['hard'] ?? {}) as Json).sort();
  const p = path.child('scopes');
  for (const scope of scopes) {
    if (!standardScopes.includes(scope)) errs.push(fieldInvalid(p, scopes, 'unsupported scope'));
    for (const k of hard) {
      if (isStandardQuotaResourceName(k) && !scopeValidForResource(scope, k)) {
        errs.push(fieldInvalid(p, scopes, 'unsupported scope applied to resource'));
      }
    }
  }
  for (const pair of conflictingPairs) {
    if (pair.every((s) => scopes.includes(s)))
      errs.push(fieldInvalid(p, scopes, 'conflicting scopes'));
  }
  return errs;
}

function validateScopeSelector(spec: Json, path: FieldPath): FieldError[] {
  const selector = spec['scopeSelector'] as Json | undefined;
  if (!selector) return [];
  const errs: FieldError[] = [];
  const hard = Object.keys((spec['hard'] ?? {}) as Json).sort();
  const p = path.child('scopeSelector', 'matchExpressions');
  const names = new Set<string>();
  const reqs = (selector['matchExpressions'] as Json[] | undefined) ?? [];
  for (const req of reqs) {
    const scope = String(req['scopeName'] ?? '');
    const op = String(req['operator'] ?? '');
    const values = (req['values'] as string[] | undefined) ?? [];
    if (!standardScopes.includes(scope)) {
      errs.push(fieldInvalid(p.child('scopeName'), scope, 'unsupported scope'));
    }
    for (const k of hard) {
      if (isStandardQuotaResourceName(k) && !scopeValidForResource(scope, k)) {
        errs.push(fieldInvalid(p, selector, 'unsupported scope applied to resource'));
      }
    }
    if (
      [
        'BestEffort',
        'NotBestEffort',
        'Terminating',
        'NotTerminating',
        'CrossNamespacePodAffinity',
      ].includes(scope) &&
      op !== 'Exists'
    ) {
      errs.push(
        fieldInvalid(
          p.child('operator'),
          op,
          "must be 'Exist' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity"
        )
      );
    }
    if (op === 'In' || op === 'NotIn') {
      if (values.length === 0) {
        errs.push(
          fieldRequired(
            p.child('values'),
            "must be at least one value when `operator` is 'In' or 'NotIn' for scope selector"
          )
        );
      }
    } else if (op === 'Exists' || op === 'DoesNotExist') {
      if (values.length !== 0) {
        errs.push(
          fieldInvalid(
            p.child('values'),
            values,
            "must be no value when `operator` is 'Exist' or 'DoesNotExist' for scope selector"
          )
        );
      }
    } else {
      errs.push(fieldInvalid(p.child('operator'), op, 'not a valid selector operator'));
    }
    names.add(scope);
  }
  for (const pair of conflictingPairs) {
    if (pair.every((s) => names.has(s))) errs.push(fieldInvalid(p, selector, 'conflicting scopes'));
  }
  return errs;
}

/** ValidateResourceQuota (the metadata is the Store's): spec and status. */
export function validateResourceQuota(obj: ApiObject): FieldError[] {
  const spec = (obj['spec'] ?? {}) as Json;
  const status = (obj['status'] ?? {}) as Json;
  const specPath = newPath('spec');
  const statusPath = newPath('status');
  return [
    ...validateResourceList(spec['hard'], specPath.child('hard')),
    ...validateScopes(spec, specPath),
    ...validateScopeSelector(spec, specPath),
    ...validateResourceList(status['hard'], statusPath.child('hard')),
    ...validateResourceList(status['used'], statusPath.child('used')),
  ];
}

/** ValidateResourceQuotaUpdate: as on create, and the scopes never change. */
export function validateResourceQuotaUpdate(obj: ApiObject, old: ApiObject): FieldError[] {
  const errs = validateResourceQuota(obj);
  const scopes = (obj['spec'] as Json | undefined)?.['scopes'] ?? [];
  const oldScopes = (old['spec'] as Json | undefined)?.['scopes'] ?? [];
  if (!sameJson(scopes, oldScopes)) {
    errs.push(fieldInvalid(newPath('spec', 'scopes'), scopes, 'field is immutable'));
  }
  return errs;
}
