// Conversions of admissionregistration.orch.io's ValidatingAdmissionPolicy and
// ValidatingAdmissionPolicyBinding between v1beta1 and v1 (upstream's
// pkg/apis/admissionregistration/v1beta1 zz_generated.conversion.go, through the internal type):
// the two versions have the same fields, so a conversion copies every field and names the other
// version; nothing is lost either way.
import type { Conversions } from '../../registry/conversion.js';

type Json = Record<string, unknown>;

/** Every field as it is (the Conversions registry sets apiVersion and kind); a deep copy, so the input stays untouched. */
const sameFields = (obj: Json): Json => structuredClone(obj);

export const admissionRegistrationConvertedKinds = [
  'ValidatingAdmissionPolicy',
  'ValidatingAdmissionPolicyBinding',
] as const;

export function addAdmissionRegistrationConversions(conversions: Conversions): void {
  for (const kind of admissionRegistrationConvertedKinds) {
    const key = { group: 'admissionregistration.orch.io', kind };
    conversions.register({ ...key, from: 'v1beta1', to: 'v1' }, sameFields);
    conversions.register({ ...key, from: 'v1', to: 'v1beta1' }, sameFields);
  }
}
