// The core group's field validators that other groups' strategies use too, as upstream's
// pkg/apis/core/validation serves apps, batch, policy, storage and node: non-negative counts and
// quantities, protocols. Messages are upstream's, word for word.
import { fieldInvalid, fieldNotSupported, fieldRequired } from '@orch/apimachinery/errors';
import type { FieldError, FieldPath } from '@orch/apimachinery/errors';
import { isNegativeErrorMsg } from '@orch/apimachinery/meta';
import { quantityValue } from '../validation.js';

/** ValidateNonnegativeField. */
export function nonNegative(value: unknown, path: FieldPath): FieldError[] {
  return typeof value === 'number' && value < 0
    ? [fieldInvalid(path, value, isNegativeErrorMsg)]
    : [];
}

/** ValidateNonnegativeQuantity. */
export function nonNegativeQuantity(q: unknown, path: FieldPath): FieldError[] {
  const v = quantityValue(q);
  return v !== undefined && v < 0
    ? [fieldInvalid(path, q, 'must be greater than or equal to 0')]
    : [];
}

export const supportedProtocols = ['SCTP', 'TCP', 'UDP'] as const;

/** A protocol field: required and one of TCP, UDP, SCTP. */
export function validateProtocol(protocol: unknown, path: FieldPath): FieldError[] {
  if (protocol === undefined || protocol === '') return [fieldRequired(path, '')];
  return supportedProtocols.includes(protocol as never)
    ? []
    : [fieldNotSupported(path, protocol, supportedProtocols)];
}
