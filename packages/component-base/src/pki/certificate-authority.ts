import { X509Certificate as NodeX509Certificate, createPrivateKey } from 'node:crypto';
import type { webcrypto } from 'node:crypto';

import type { KeyPairPem } from './key-pem.js';
import { generateKeyPair, privateKeyFromPem, privateKeyToPem } from './key-pem.js';
import { randomSerialNumber } from './serial-number.js';
import { x509 } from './x509.js';

/** A CA ready to sign: its PEMs plus the parsed certificate and the imported signing key. */
export interface CertificateAuthority extends KeyPairPem {
  certificate: InstanceType<typeof x509.X509Certificate>;
  signingKey: webcrypto.CryptoKey;
}

export interface CreateCertificateAuthorityOptions {
  commonName: string;
  /** Default 3650 (ten years). */
  validityDays?: number;
}

const defaultCaValidityDays = 3650;
/** Backdate notBefore a little so a freshly minted CA is valid on hosts with a lagging clock. */
export const clockSkewMs = 5 * 60 * 1000;
const dayMs = 24 * 60 * 60 * 1000;

/**
 * Creates a self-signed ECDSA P-256 CA: basicConstraints CA (critical), keyUsage keyCertSign and
 * cRLSign (critical), subject key identifier.
 */
export async function createCertificateAuthority(
  opts: CreateCertificateAuthorityOptions
): Promise<KeyPairPem> {
  const keys = await generateKeyPair();
  const now = Date.now();
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: randomSerialNumber(),
    name: [{ CN: [opts.commonName] }],
    notBefore: new Date(now - clockSkewMs),
    notAfter: new Date(now + (opts.validityDays ?? defaultCaValidityDays) * dayMs),
    keys,
    signingAlgorithm: { name: 'ECDSA', hash: 'SHA-256' },
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(
        x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign,
        true
      ),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return {
    certPem: certificate.toString('pem'),
    keyPem: await privateKeyToPem(keys.privateKey),
  };
}

/**
 * Parses a CA certificate and key, checking that the certificate is a CA and that the key is the
 * one the certificate was issued for.
 */
export async function loadCertificateAuthority(
  certPem: string,
  keyPem: string
): Promise<CertificateAuthority> {
  const certificate = new x509.X509Certificate(certPem);
  const basic = certificate.getExtension(x509.BasicConstraintsExtension);
  if (!basic?.ca) {
    throw new Error(`certificate ${certificate.subject} is not a CA (basicConstraints CA:FALSE)`);
  }
  const nodeCert = new NodeX509Certificate(certPem);
  if (!nodeCert.checkPrivateKey(createPrivateKey(keyPem))) {
    throw new Error(`CA private key does not match certificate ${certificate.subject}`);
  }
  return { certPem, keyPem, certificate, signingKey: await privateKeyFromPem(keyPem) };
}
