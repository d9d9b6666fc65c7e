// The CertificateSigningRequest as the controllers read it, and the helpers upstream keeps in
// pkg/controller/certificates/certificate_controller_utils.go (GetCertApprovalCondition,
// HasTrueCondition) and pkg/apis/certificates/helpers.go (ParseCSR). `spec.request` and
// `status.certificate` are bytes, base64 in JSON.
import './x509.js';
import * as x509 from '@peculiar/x509';
import type * as certificatesV1 from '@orch/api/certificates/v1';
import type { ObjectMeta } from '@orch/apimachinery/meta';

export const csrGroup = 'certificates.orch.io';
export const csrPath = `/apis/${csrGroup}/v1/certificatesigningrequests`;

export const clientSignerName = 'orch.io/apiserver-client';
export const clientNodeAgentSignerName = 'orch.io/apiserver-client-node-agent';
export const nodeAgentServingSignerName = 'orch.io/node-agent-serving';

export type ConditionType = 'Approved' | 'Denied' | 'Failed';

export type CsrCondition = certificatesV1.CertificateSigningRequestCondition;

/** A stored CertificateSigningRequest: the generated kind with its metadata and name. */
export type CertificateSigningRequest = certificatesV1.CertificateSigningRequest & {
  metadata: ObjectMeta & { name: string };
};

/** Whether a condition of `type` with status True is present (upstream HasTrueCondition). */
export function hasTrueCondition(csr: CertificateSigningRequest, type: ConditionType): boolean {
  return (csr.status?.conditions ?? []).some((c) => c.type === type && c.status === 'True');
}

/** Upstream GetCertApprovalCondition: approved and denied as the conditions say. */
export function approvalOf(csr: CertificateSigningRequest): { approved: boolean; denied: boolean } {
  return { approved: hasTrueCondition(csr, 'Approved'), denied: hasTrueCondition(csr, 'Denied') };
}

/** Whether a certificate was issued (status.certificate not empty). */
export function isIssued(csr: CertificateSigningRequest): boolean {
  return (csr.status?.certificate ?? '') !== '';
}

/** The PEM text of spec.request (bytes, base64 in JSON). */
export function requestPem(csr: CertificateSigningRequest): string {
  return Buffer.from(csr.spec.request, 'base64').toString('utf8');
}

/**
 * Parses the PKCS#10 request of a CSR (upstream ParseCSR: the first PEM block must be a
 * CERTIFICATE REQUEST); throws with the reason when it is not one.
 */
export function parseCsr(csr: CertificateSigningRequest): x509.Pkcs10CertificateRequest {
  const pem = requestPem(csr);
  const m = /-----BEGIN ([A-Z0-9 ]+)-----([\s\S]*?)-----END \1-----/.exec(pem);
  if (!m || (m[1] !== 'CERTIFICATE REQUEST' && m[1] !== 'NEW CERTIFICATE REQUEST'))
    throw new Error('PEM block type must be CERTIFICATE REQUEST');
  return new x509.Pkcs10CertificateRequest(Buffer.from((m[2] ?? '').replace(/\s+/g, ''), 'base64'));
}

/** The certificates in a PEM bundle (status.certificate decoded). */
export function certificatesOf(csr: CertificateSigningRequest): x509.X509Certificate[] {
  const pem = Buffer.from(csr.status?.certificate ?? '', 'base64').toString('utf8');
  const out: x509.X509Certificate[] = [];
  for (const m of pem.matchAll(/-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/g))
    out.push(new x509.X509Certificate(Buffer.from((m[1] ?? '').replace(/\s+/g, ''), 'base64')));
  return out;
}
