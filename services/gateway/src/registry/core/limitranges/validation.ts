// LimitRange validation (k8s pkg/apis/core/validation ValidateLimitRange): one item per type,
// resource names per type, no defaults for Pod, storage bounds for PersistentVolumeClaim, and
// min <= defaultRequest <= default <= max with upstream's messages; ratios at least 1 and within
// max/min; defaults equal to default requests for resources that cannot overcommit.
import {
  fieldDuplicate,
  fieldForbidden,
  fieldInvalid,
  fieldRequired,
  newPath,
} from '@orch/apimachinery/errors';
import type { FieldError, FieldPath } from '@orch/apimachinery/errors';
import type { ApiObject } from '@orch/apimachinery/meta';
import { isQualifiedName } from '@orch/apimachinery/meta';
import {
  compareQuantities,
  formatQuantity,
  milliValue,
  parseQuantity,
  quantityFromInt,
} from '@orch/apimachinery/quota';
import type { Quantity } from '@orch/apimachinery/quota';
import {
  isOvercommitAllowed,
  validateContainerResourceName,
  validateResourceName,
} from '../resource-names.js';

type Json = Record<string, unknown>;

const standardLimitTypes = ['Pod', 'Container', 'PersistentVolumeClaim'];

function validateTypeName(type: string, path: FieldPath): FieldError[] {
  const errs = isQualifiedName(type).map((m) => fieldInvalid(path, type, m));
  if (errs.length === 0 && !type.includes('/') && !standardLimitTypes.includes(type)) {
    errs.push(fieldInvalid(path, type, 'must be a standard limit type or fully qualified'));
  }
  return errs;
}

function validateLimitResourceName(type: string, name: string, path: FieldPath): FieldError[] {
  return type === 'Pod' || type === 'Container'
    ? validateContainerResourceName(name, path)
    : validateResourceName(name, path);
}

/** Upstream's %f: six decimals. */
const fixed6 = (n: number): string => n.toFixed(6);

export function validateLimitRange(obj: ApiObject): FieldError[] {
  const errs: FieldError[] = [];
  const limits = (((obj['spec'] ?? {}) as Json)['limits'] as Json[] | undefined) ?? [];
  const path = newPath('spec', 'limits');
  const types = new Set<string>();
  limits.forEach((limit, i) => {
    const idx = path.index(i);
    const type = String(limit['type'] ?? '');
    errs.push(...validateTypeName(type, idx.child('type')));
    if (types.has(type)) errs.push(fieldDuplicate(idx.child('type'), type));
    types.add(type);

    const keys = new Set<string>();
    const read = (field: string): Map<string, Quantity> => {
      const out = new Map<string, Quantity>();
      for (const [k, v] of Object.entries((limit[field] ?? {}) as Json)) {
        errs.push(...validateLimitResourceName(type, k, idx.child(field).key(k)));
        keys.add(k);
        const q = typeof v === 'string' ? parseQuantity(v) : undefined;
        if (q) out.set(k, q);
        else errs.push(fieldInvalid(idx.child(field).key(k), v, 'must be a quantity'));
      }
      return out;
    };
    const max = read('max');
    const min = read('min');
    let defaults = new Map<string, Quantity>();
    let defaultRequests = new Map<string, Quantity>();
    if (type === 'Pod') {
      if (Object.keys((limit['default'] ?? {}) as Json).length > 0) {
        errs.push(
          fieldForbidden(idx.child('default'), "may not be specified when `type` is 'Pod'")
        );
      }
      if (Object.keys((limit['defaultRequest'] ?? {}) as Json).length > 0) {
        errs.push(
          fieldForbidden(idx.child('defaultRequest'), "may not be specified when `type` is 'Pod'")
        );
      }
    } else {
      defaults = read('default');
      defaultRequests = read('defaultRequest');
    }
    if (type === 'PersistentVolumeClaim' && !min.has('storage') && !max.has('storage')) {
      errs.push(
        fieldRequired(
          idx.child('limits'),
          'either minimum or maximum storage value is required, but neither was provided'
        )
      );
    }
    const ratios = read('maxLimitRequestRatio');

    for (const k of [...keys].sort()) {
      const mn = min.get(k);
      const mx = max.get(k);
      const df = defaults.get(k);
      const dr = defaultRequests.get(k);
      const ratio = ratios.get(k);
      const s = formatQuantity;
      if (mn && mx && compareQuantities(mn, mx) > 0) {
        errs.push(
          fieldInvalid(
            idx.child('min').key(k),
            s(mn),
            `min value ${s(mn)} is greater than max value ${s(mx)}`
          )
        );
      }
      if (dr && mn && compareQuantities(mn, dr) > 0) {
        errs.push(
          fieldInvalid(
            idx.child('defaultRequest').key(k),
            s(dr),
            `min value ${s(mn)} is greater than default request value ${s(dr)}`
          )
        );
      }
      if (dr && mx && compareQuantities(dr, mx) > 0) {
        errs.push(
          fieldInvalid(
            idx.child('defaultRequest').key(k),
            s(dr),
            `default request value ${s(dr)} is greater than max value ${s(mx)}`
          )
        );
      }
      if (dr && df && compareQuantities(dr, df) > 0) {
        errs.push(
          fieldInvalid(
            idx.child('defaultRequest').key(k),
            s(dr),
            `default request value ${s(dr)} is greater than default limit value ${s(df)}`
          )
        );
      }
      if (df && mn && compareQuantities(mn, df) > 0) {
        errs.push(
          fieldInvalid(
            idx.child('default').key(k),
            s(mn),
            `min value ${s(mn)} is greater than default value ${s(df)}`
          )
        );
      }
      if (df && mx && compareQuantities(df, mx) > 0) {
        errs.push(
          fieldInvalid(
            idx.child('default').key(k),
            s(mx),
            `default value ${s(df)} is greater than max value ${s(mx)}`
          )
        );
      }
      if (ratio && compareQuantities(ratio, quantityFromInt(1)) < 0) {
        errs.push(
          fieldInvalid(
            idx.child('maxLimitRequestRatio').key(k),
            s(ratio),
            `ratio ${s(ratio)} is less than 1`
          )
        );
      }
      if (ratio && mn && mx) {
        const r = Number(milliValue(ratio)) / 1000;
        const limit = Number(milliValue(mx)) / Number(milliValue(mn));
        if (r > limit) {
          errs.push(
            fieldInvalid(
              idx.child('maxLimitRequestRatio').key(k),
              s(ratio),
              `ratio ${s(ratio)} is greater than max/min = ${fixed6(limit)}`
            )
          );
        }
      }
      if (!isOvercommitAllowed(k) && df && dr && compareQuantities(df, dr) !== 0) {
        errs.push(
          fieldInvalid(
            idx.child('defaultRequest').key(k),
            s(dr),
            `default value ${s(df)} must equal to defaultRequest value ${s(dr)} in ${k}`
          )
        );
      }
    }
  });
  return errs;
}
