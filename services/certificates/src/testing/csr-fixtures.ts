// Certificate signing requests for tests, made two ways: by the `openssl req` binary and by
// @peculiar/x509, each returning the PEM text and the base64 the API's spec.request carries.
// Also a request with one byte of its signature flipped (a signature that does not verify).
import { execFileSync } from 'node:child_process';
import { webcrypto } from 'node:crypto';
import { x509 } from '@orch/component-base/pki';

export interface CsrSubject {
  commonName: string;
  organizations?: string[];
}

export interface MadeCsr {
  pem: string;
  /** spec.request as JSON carries it: base64 of the PEM text. */
  request: string;
}

const asRequest = (pem: string): MadeCsr => ({ pem, request: Buffer.from(pem).toString('base64') });

/** `openssl req -new` with a fresh P-256 key; the subject as `/O=.../CN=...`. */
export function opensslCsr(subject: CsrSubject): MadeCsr {
  const esc = (v: string): string => v.replace(/[/\\=+]/g, (c) => `\\${c}`);
  const subj =
    (subject.organizations ?? []).map((o) => `/O=${esc(o)}`).join('') +
    `/CN=${esc(subject.commonName)}`;
  const pem = execFileSync(
    'openssl',
    [
      'req',
      '-new',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      '/dev/null',
      '-subj',
      subj,
    ],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }
  );
  return asRequest(pem);
}

/** A PKCS#10 request built and signed by @peculiar/x509 with a fresh P-256 key. */
export async function x509Csr(subject: CsrSubject): Promise<MadeCsr> {
  const alg = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
  const keys = (await webcrypto.subtle.generateKey(alg, true, [
    'sign',
    'verify',
  ])) as webcrypto.CryptoKeyPair;
  const name = [
    ...(subject.organizations ?? []).map((o) => ({ O: [o] })),
    { CN: [subject.commonName] },
  ];
  const csr = await x509.Pkcs10CertificateRequestGenerator.create({
    name: new x509.Name(name as never).toString(),
    keys,
    signingAlgorithm: alg,
  });
  return asRequest(csr.toString('pem'));
}

/** The same request with the last byte of its DER (inside the signature) flipped. */
export function flipSignatureByte(made: MadeCsr): MadeCsr {
  const der = Buffer.from(
    made.pem.replace(/-----(BEGIN|END) CERTIFICATE REQUEST-----/g, '').replace(/\s+/g, ''),
    'base64'
  );
  der[der.length - 1] = (der[der.length - 1] ?? 0) ^ 0x01;
  const b64 = der.toString('base64').replace(/.{64}/g, '$&\n');
  const pem = `-----BEGIN CERTIFICATE REQUEST-----\n${b64.trimEnd()}\n-----END CERTIFICATE REQUEST-----\n`;
  return asRequest(pem);
}
