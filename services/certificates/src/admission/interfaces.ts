// What the certificate admission plugins of this service are given (upstream's
// admission.ValidationInterface for plugin/pkg/admission/certificates/*): one write's attributes
// and the authorizer they ask. Validate only: none of the three mutates.
import type { Attributes, AuthorizationResult } from '@orch/apimachinery/auth';
import type { AdmissionCallRequest } from '@orch/apimachinery/grpc';

/** The plugins of this service, by the admission flags' names, in upstream's order. */
export const certificatePluginNames = [
  'CertificateApproval',
  'CertificateSigning',
  'CertificateSubjectRestriction',
] as const;

export type CertificatePluginName = (typeof certificatePluginNames)[number];

export interface CertificatePluginDeps {
  authorize(a: Attributes): Promise<AuthorizationResult>;
}

export interface CertificatePlugin {
  readonly name: CertificatePluginName;
  /** Throws a StatusError (403) to deny; returns when the write may go on. */
  validate(req: AdmissionCallRequest): Promise<void>;
}

/** certificates.orch.io, the group of the kind and of the `signers` pseudo-resource. */
export const certificatesGroup = 'certificates.orch.io';
export const csrResource = 'certificatesigningrequests';

/** Is this a write of a CertificateSigningRequest (any subresource)? */
export function isCsrWrite(req: AdmissionCallRequest): boolean {
  return req.resource.group === certificatesGroup && req.resource.resource === csrResource;
}
