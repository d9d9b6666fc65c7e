// The denial of a certificate plugin (upstream's admission.NewForbidden): 403 naming the
// CertificateSigningRequest and why.
import { newForbidden } from '@orch/apimachinery/errors';
import type { StatusError } from '@orch/apimachinery/errors';
import type { AdmissionCallRequest } from '@orch/apimachinery/grpc';

export function forbidden(req: AdmissionCallRequest, why: string): StatusError {
  return newForbidden(
    { group: req.resource.group, resource: req.resource.resource },
    req.name || String(req.object?.metadata.name ?? ''),
    why
  );
}

/** spec.signerName of a CertificateSigningRequest as JSON, '' when missing. */
export function signerNameOf(obj: unknown): string {
  const spec = (obj as { spec?: { signerName?: unknown } } | undefined)?.spec;
  return typeof spec?.signerName === 'string' ? spec.signerName : '';
}
