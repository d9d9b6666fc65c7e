// ValidateCSIDriverName (k8s pkg/apis/core/validation): a CSI driver's name, at most 63
// characters, a DNS subdomain once lower-cased.
import { fieldInvalid, fieldRequired, fieldTooLong } from '@orch/apimachinery/errors';
import type { FieldError, FieldPath } from '@orch/apimachinery/errors';
import { isDNS1123Subdomain } from '@orch/apimachinery/meta';

export const csiDriverNameMaxLength = 63;

export function validateCSIDriverName(name: string, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (name === '') errs.push(fieldRequired(path, ''));
  if (name.length > csiDriverNameMaxLength) errs.push(fieldTooLong(path, csiDriverNameMaxLength));
  for (const m of isDNS1123Subdomain(name.toLowerCase())) errs.push(fieldInvalid(path, name, m));
  return errs;
}
