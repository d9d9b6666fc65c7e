// The apps group's validators that policy uses too (k8s pkg/apis/apps/validation
// ValidatePositiveIntOrPercent and IsNotMoreThan100Percent, as PodDisruptionBudgets' validation
// imports them), and the scaled value of an int-or-percent (intstr.GetScaledValueFromIntOrPercent).
import { fieldInvalid } from '@orch/apimachinery/errors';
import type { FieldError, FieldPath } from '@orch/apimachinery/errors';
import { nonNegative } from '../core/validation.js';

const percentMsg =
  "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')";

/** ValidatePositiveIntOrPercent and IsNotMoreThan100Percent. */
export function intOrPercent(
  value: unknown,
  path: FieldPath,
  opts: { max100?: boolean } = {}
): FieldError[] {
  if (value === undefined || value === null) return [];
  if (typeof value === 'number') return nonNegative(value, path);
  if (typeof value !== 'string' || !/^[0-9]+%$/.test(value)) {
    return [fieldInvalid(path, value, percentMsg)];
  }
  if (opts.max100 && Number(value.slice(0, -1)) > 100) {
    return [fieldInvalid(path, value, 'must not be greater than 100%')];
  }
  return [];
}

/** The value of an int-or-percent of a total (GetScaledValueFromIntOrPercent, rounding up). */
export function intOrPercentValue(value: unknown, total: number): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && value.endsWith('%')) {
    return Math.ceil((Number(value.slice(0, -1)) * total) / 100);
  }
  return 0;
}
