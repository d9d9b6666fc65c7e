// Test helpers: PKCS#10 requests made by @peculiar/x509 and by `openssl req`, and CSR objects
// around them (used by the unit and integration tests of the controllers and by the e2e test).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { webcrypto } from 'node:crypto';
import './x509.js';
import * as x509 from '@peculiar/x509';
import type { CertificateSigningRequest } from './csr.js';

export interface RequestSubject {
  cn: string;
  orgs?: string[];
  dns?: string[];
  ips?: string[];
  emails?: string[];
  uris?: string[];
  /** Request basicConstraints with cA TRUE. */
  ca?: boolean;
  /** Request an extension outside every signer's allowance (certificate policies). */
  otherExtension?: boolean;
}

export interface MadeRequest {
  pem: string;
  keyPem: string;
}

function sanJson(s: RequestSubject): x509.JsonGeneralName[] {
  return [
    ...(s.dns ?? []).map((value) => ({ type: 'dns' as const, value })),
    ...(s.ips ?? []).map((value) => ({ type: 'ip' as const, value })),
    ...(s.emails ?? []).map((value) => ({ type: 'email' as const, value })),
    ...(s.uris ?? []).map((value) => ({ type: 'url' as const, value })),
  ];
}

/** A request made by @peculiar/x509 (ECDSA P-256). */
export async function x509Request(s: RequestSubject): Promise<MadeRequest> {
  const keys = (await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, [
    'sign',
    'verify',
  ])) as webcrypto.CryptoKeyPair;
  const sans = sanJson(s);
  const extensions: x509.Extension[] = [
    ...(sans.length ? [new x509.SubjectAlternativeNameExtension(sans)] : []),
    ...(s.ca ? [new x509.BasicConstraintsExtension(true, undefined, true)] : []),
    ...(s.otherExtension ? [new x509.CertificatePolicyExtension(['2.5.29.32.0'])] : []),
  ];
  const req = await x509.Pkcs10CertificateRequestGenerator.create({
    name: [{ CN: [s.cn] }, ...(s.orgs ?? []).map((o) => ({ O: [o] }))],
    keys,
    signingAlgorithm: { name: 'ECDSA', hash: 'SHA-256' },
    extensions,
  });
  const der = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey));
  const keyPem = `-----BEGIN PRIVATE KEY-----\n${der.toString('base64').replace(/(.{64})/g, '$1\n')}\n-----END PRIVATE KEY-----\n`;
  return { pem: req.toString('pem'), keyPem };
}

/** A request made by `openssl req` (ECDSA P-256; SANs and extensions with -addext). */
export function opensslRequest(s: RequestSubject): MadeRequest {
  const dir = mkdtempSync(join(tmpdir(), 'orch-csr-'));
  try {
    const subj = `/CN=${s.cn}${(s.orgs ?? []).map((o) => `/O=${o}`).join('')}`;
    const sans = [
      ...(s.dns ?? []).map((v) => `DNS:${v}`),
      ...(s.ips ?? []).map((v) => `IP:${v}`),
      ...(s.emails ?? []).map((v) => `email:${v}`),
      ...(s.uris ?? []).map((v) => `URI:${v}`),
    ];
    const addext = [
      ...(sans.length ? ['-addext', `subjectAltName=${sans.join(',')}`] : []),
      ...(s.ca ? ['-addext', 'basicConstraints=critical,CA:TRUE'] : []),
      ...(s.otherExtension ? ['-addext', 'certificatePolicies=2.5.29.32.0'] : []),
    ];
    execFileSync(
      'openssl',
      [
        'req',
        '-new',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:P-256',
        '-nodes',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'req.pem'),
        '-subj',
        subj,
        ...addext,
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] }
    );
    return {
      pem: readFileSync(join(dir, 'req.pem'), 'utf8'),
      keyPem: readFileSync(join(dir, 'key.pem'), 'utf8'),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A CSR object around a request PEM. */
export function csrObject(
  name: string,
  pem: string,
  signerName: string,
  usages: string[],
  extra: Partial<CertificateSigningRequest['spec']> = {}
): CertificateSigningRequest {
  return {
    apiVersion: 'certificates.orch.io/v1',
    kind: 'CertificateSigningRequest',
    metadata: { name },
    spec: { request: Buffer.from(pem).toString('base64'), signerName, usages, ...extra },
  };
}
