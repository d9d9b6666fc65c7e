// Label selector validation as k8s apimachinery pkg/apis/meta/v1/validation ValidateLabelSelector:
// matchLabels keys and values, and each requirement's operator, key and values.
import { fieldForbidden, fieldInvalid, fieldRequired } from '@orch/apimachinery/errors';
import type { FieldError, FieldPath } from '@orch/apimachinery/errors';
import { isQualifiedName, isValidLabelValue } from '@orch/apimachinery/meta';

export interface LabelSelectorValidationOptions {
  /** Ratcheting: a stored selector with an invalid value in matchExpressions stays valid. */
  allowInvalidLabelValueInSelector?: boolean;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

export function validateLabelSelector(
  selector: unknown,
  opts: LabelSelectorValidationOptions,
  path: FieldPath
): FieldError[] {
  if (!isObject(selector)) return [];
  const errs: FieldError[] = [];
  const labels = isObject(selector['matchLabels']) ? selector['matchLabels'] : {};
  for (const [key, value] of Object.entries(labels)) {
    const p = path.child('matchLabels');
    for (const msg of isQualifiedName(key)) errs.push(fieldInvalid(p, key, msg));
    for (const msg of isValidLabelValue(String(value))) errs.push(fieldInvalid(p, value, msg));
  }
  list(selector['matchExpressions']).forEach((req, i) => {
    const p = path.child('matchExpressions').index(i);
    const r = isObject(req) ? req : {};
    const values = list(r['values']);
    switch (r['operator']) {
      case 'In':
      case 'NotIn':
        if (values.length === 0)
          errs.push(
            fieldRequired(p.child('values'), "must be specified when `operator` is 'In' or 'NotIn'")
          );
        break;
      case 'Exists':
      case 'DoesNotExist':
        if (values.length > 0)
          errs.push(
            fieldForbidden(
              p.child('values'),
              "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"
            )
          );
        break;
      default:
        errs.push(
          fieldInvalid(p.child('operator'), r['operator'], 'not a valid selector operator')
        );
    }
    const key = typeof r['key'] === 'string' ? r['key'] : '';
    for (const msg of isQualifiedName(key)) errs.push(fieldInvalid(p.child('key'), key, msg));
    if (!opts.allowInvalidLabelValueInSelector)
      values.forEach((v, j) => {
        for (const msg of isValidLabelValue(String(v)))
          errs.push(fieldInvalid(p.child('values').index(j), v, msg));
      });
  });
  return errs;
}

/** Whether a selector has a matchExpressions value that is not a valid label value (for ratcheting). */
export function hasInvalidLabelValueInSelector(selector: unknown): boolean {
  if (!isObject(selector)) return false;
  return list(selector['matchExpressions']).some(
    (r) => isObject(r) && list(r['values']).some((v) => isValidLabelValue(String(v)).length > 0)
  );
}
