// The cluster CA signing a request (upstream pkg/controller/certificates/authority: Sign with a
// PermissiveSigningPolicy): subject and SANs from the request, key usages from the CSR's usages,
// CA false, a random 128-bit serial, notBefore backdated and notAfter within the CA's own.
import { randomBytes } from 'node:crypto';
import { webcrypto } from 'node:crypto';
import '../x509.js';
import * as x509 from '@peculiar/x509';
import { oidSubjectAltName } from './signer-rules.js';

export interface CertificateAuthority {
  certificate: x509.X509Certificate;
  certPem: string;
  signingKey: webcrypto.CryptoKey;
}

/** Loads the cluster CA (--cluster-signing-cert-file / --cluster-signing-key-file contents). */
export async function loadAuthority(
  certPem: string,
  keyPem: string
): Promise<CertificateAuthority> {
  const certificate = new x509.X509Certificate(certPem);
  if (!certificate.getExtension(x509.BasicConstraintsExtension)?.ca)
    throw new Error(`signing certificate ${certificate.subject} is not a CA`);
  const der = Buffer.from(
    keyPem.replace(/-----(BEGIN|END) [A-Z ]+-----/g, '').replace(/\s+/g, ''),
    'base64'
  );
  const alg = certificate.publicKey.algorithm as
    webcrypto.EcKeyImportParams | webcrypto.RsaHashedImportParams;
  const signingKey = await webcrypto.subtle.importKey(
    'pkcs8',
    der,
    alg.name === 'ECDSA'
      ? { name: 'ECDSA', namedCurve: (alg as webcrypto.EcKeyImportParams).namedCurve }
      : { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' },
    false,
    ['sign']
  );
  return { certificate, certPem: certificate.toString('pem'), signingKey };
}

/** Upstream keyUsagesFromStrings: the CSR usage strings as key usage bits and EKU OIDs. */
const keyUsageBits: Record<string, number> = {
  signing: x509.KeyUsageFlags.digitalSignature,
  'digital signature': x509.KeyUsageFlags.digitalSignature,
  'content commitment': x509.KeyUsageFlags.nonRepudiation,
  'key encipherment': x509.KeyUsageFlags.keyEncipherment,
  'key agreement': x509.KeyUsageFlags.keyAgreement,
  'data encipherment': x509.KeyUsageFlags.dataEncipherment,
  'cert sign': x509.KeyUsageFlags.keyCertSign,
  'crl sign': x509.KeyUsageFlags.cRLSign,
  'encipher only': x509.KeyUsageFlags.encipherOnly,
  'decipher only': x509.KeyUsageFlags.decipherOnly,
};
const extKeyUsageOids: Record<string, string> = {
  any: '2.5.29.37.0',
  'server auth': '1.3.6.1.5.5.7.3.1',
  'client auth': '1.3.6.1.5.5.7.3.2',
  'code signing': '1.3.6.1.5.5.7.3.3',
  'email protection': '1.3.6.1.5.5.7.3.4',
  's/mime': '1.3.6.1.5.5.7.3.4',
  'ipsec end system': '1.3.6.1.5.5.7.3.5',
  'ipsec tunnel': '1.3.6.1.5.5.7.3.6',
  'ipsec user': '1.3.6.1.5.5.7.3.7',
  timestamping: '1.3.6.1.5.5.7.3.8',
  'ocsp signing': '1.3.6.1.5.5.7.3.9',
  'microsoft sgc': '1.3.6.1.4.1.311.10.3.3',
  'netscape sgc': '2.16.840.1.113730.4.1',
};

export interface SigningPolicy {
  /** The certificate's lifetime. */
  ttlMs: number;
  usages: readonly string[];
  /** How far notBefore goes back (upstream 5 minutes). */
  backdateMs: number;
  /** Lifetimes up to this keep their full length (upstream 8 hours); longer ones lose the backdate. */
  shortMs: number;
  now: Date;
}

/** Upstream boundaries(): notBefore = now - backdate; notAfter = now + ttl (- backdate when long), within the CA's. */
export function boundaries(
  policy: Pick<SigningPolicy, 'ttlMs' | 'backdateMs' | 'shortMs' | 'now'>,
  signerNotAfter: Date
): { notBefore: Date; notAfter: Date } {
  const now = policy.now.getTime();
  if (policy.ttlMs <= 0) throw new Error(`invalid ttl ${policy.ttlMs}ms`);
  if (now > signerNotAfter.getTime())
    throw new Error(`the signer has expired: NotAfter=${signerNotAfter.toISOString()}`);
  const notBefore = now - policy.backdateMs;
  let notAfter = now + policy.ttlMs;
  if (policy.ttlMs > policy.shortMs) notAfter -= policy.backdateMs;
  notAfter = Math.min(notAfter, signerNotAfter.getTime());
  return { notBefore: new Date(notBefore), notAfter: new Date(notAfter) };
}

/** A positive random 128-bit serial number, hex. */
function serialNumber(): string {
  const b = randomBytes(16);
  b[0] = (b[0] ?? 0) & 0x7f;
  return b.toString('hex');
}

/** Signs a verified request; the PEM of the certificate. */
export async function signRequest(
  ca: CertificateAuthority,
  req: x509.Pkcs10CertificateRequest,
  policy: SigningPolicy
): Promise<string> {
  if (!(await req.verify())) throw new Error('unable to verify certificate request signature');
  const { notBefore, notAfter } = boundaries(policy, ca.certificate.notAfter);
  let bits = 0;
  const ekus: string[] = [];
  for (const u of policy.usages) {
    if (keyUsageBits[u] !== undefined) bits |= keyUsageBits[u];
    else if (extKeyUsageOids[u] !== undefined) ekus.push(extKeyUsageOids[u]);
    else throw new Error(`unrecognized usage: ${u}`);
  }
  const caKeyId = ca.certificate.getExtension(x509.SubjectKeyIdentifierExtension)?.keyId;
  const san = req.getExtension(oidSubjectAltName);
  const extensions: x509.Extension[] = [
    new x509.BasicConstraintsExtension(false, undefined, true),
    ...(bits ? [new x509.KeyUsagesExtension(bits, true)] : []),
    ...(ekus.length ? [new x509.ExtendedKeyUsageExtension(ekus, false)] : []),
    caKeyId
      ? new x509.AuthorityKeyIdentifierExtension(caKeyId)
      : await x509.AuthorityKeyIdentifierExtension.create(ca.certificate.publicKey),
    ...(san ? [new x509.Extension(san.type, san.critical, san.value)] : []),
  ];
  const alg = ca.signingKey.algorithm as { name: string };
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: serialNumber(),
    subject: req.subjectName,
    issuer: ca.certificate.subjectName,
    notBefore,
    notAfter,
    publicKey: req.publicKey,
    signingKey: ca.signingKey,
    signingAlgorithm:
      alg.name === 'ECDSA'
        ? { name: 'ECDSA', hash: 'SHA-256' }
        : { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' },
    extensions,
  });
  return cert.toString('pem');
}
