import { isIP } from 'node:net';

import type { CertificateAuthority } from './certificate-authority.js';
import { clockSkewMs, loadCertificateAuthority } from './certificate-authority.js';
import type { KeyPairPem } from './key-pem.js';
import { generateKeyPair, privateKeyToPem, signingAlgorithmFor } from './key-pem.js';
import { randomSerialNumber } from './serial-number.js';
import { x509 } from './x509.js';

/** What a leaf certificate may be used for: TLS serving, TLS client authentication, or both. */
export type CertificateUsage = 'server' | 'client';

export interface IssueCertificateOptions {
  /** Subject CN; for client certificates the user name. */
  commonName: string;
  /** Subject O, one RDN per entry; for client certificates the groups. */
  organizations?: string[];
  dnsNames?: string[];
  ipAddresses?: string[];
  usages: CertificateUsage[];
  /** Default 365. */
  validityDays?: number;
}

const defaultLeafValidityDays = 365;
const dayMs = 24 * 60 * 60 * 1000;

/**
 * Issues an ECDSA P-256 leaf certificate signed by `ca`: subject `CN=<cn>, O=<org1>, O=<org2>`,
 * SANs for the DNS names and IP addresses, extKeyUsage serverAuth and/or clientAuth, authority
 * and subject key identifiers, random serial. Pass a loaded {@link CertificateAuthority} to avoid
 * re-parsing the CA for every certificate.
 */
export async function issueCertificate(
  ca: KeyPairPem | CertificateAuthority,
  opts: IssueCertificateOptions
): Promise<KeyPairPem> {
  if (opts.usages.length === 0) {
    throw new Error(`certificate ${opts.commonName}: at least one usage is required`);
  }
  const authority = 'signingKey' in ca ? ca : await loadCertificateAuthority(ca.certPem, ca.keyPem);
  const keys = await generateKeyPair();
  const now = Date.now();

  const sans: { type: 'dns' | 'ip'; value: string }[] = [
    ...(opts.dnsNames ?? []).map((value) => ({ type: 'dns' as const, value })),
    ...(opts.ipAddresses ?? []).map((value) => {
      if (isIP(value) === 0) {
        throw new Error(`certificate ${opts.commonName}: invalid IP address ${value}`);
      }
      return { type: 'ip' as const, value };
    }),
  ];
  const extendedUsages = [
    ...(opts.usages.includes('server') ? [x509.ExtendedKeyUsage.serverAuth] : []),
    ...(opts.usages.includes('client') ? [x509.ExtendedKeyUsage.clientAuth] : []),
  ];
  const caKeyId = authority.certificate.getExtension(x509.SubjectKeyIdentifierExtension)?.keyId;
  const extensions = [
    new x509.BasicConstraintsExtension(false, undefined, true),
    new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
    new x509.ExtendedKeyUsageExtension(extendedUsages, false),
    await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    caKeyId
      ? new x509.AuthorityKeyIdentifierExtension(caKeyId)
      : await x509.AuthorityKeyIdentifierExtension.create(authority.certificate.publicKey),
    ...(sans.length > 0 ? [new x509.SubjectAlternativeNameExtension(sans)] : []),
  ];

  const certificate = await x509.X509CertificateGenerator.create({
    serialNumber: randomSerialNumber(),
    subject: [
      { CN: [opts.commonName] },
      ...(opts.organizations ?? []).map((org) => ({ O: [org] })),
    ],
    issuer: authority.certificate.subjectName,
    notBefore: new Date(now - clockSkewMs),
    notAfter: new Date(now + (opts.validityDays ?? defaultLeafValidityDays) * dayMs),
    publicKey: keys.publicKey,
    signingKey: authority.signingKey,
    signingAlgorithm: signingAlgorithmFor(authority.signingKey),
    extensions,
  });
  return {
    certPem: certificate.toString('pem'),
    keyPem: await privateKeyToPem(keys.privateKey),
  };
}
