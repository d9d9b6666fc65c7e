// `field.TypeInvalid` (k8s.io/apimachinery/pkg/util/validation/field errors.go): a value of the
// wrong type, reason FieldValueTypeInvalid, rendered "Invalid value" like field.Invalid. Custom
// resource validation (apiextensions-apiserver kubeOpenAPIResultToFieldErrors) reports type and
// format mismatches with it.
import type { FieldPath } from './field-errors.js';
import type { FieldError } from './status-error.js';

export function fieldTypeInvalid(
  path: FieldPath | string,
  value: unknown,
  detail = ''
): FieldError {
  return {
    type: 'FieldValueTypeInvalid',
    field: typeof path === 'string' ? path : path.toString(),
    message: detail,
    value,
  };
}
