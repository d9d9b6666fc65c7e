// Validation of CertificateSigningRequests in certificates.orch.io/v1 (upstream's
// pkg/apis/certificates/validation: validateCertificateSigningRequest, validateConditions,
// validateCertificate, ValidateSignerName, validateCertificateSigningRequestUpdate), over the
// object's JSON. spec.request is checked here only as a PEM CERTIFICATE REQUEST block: its
// PKCS#10 parse and signature are the certificates service's (the gateway calls it on every write).
import { X509Certificate } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import {
  fieldDuplicate,
  fieldForbidden,
  fieldInvalid,
  fieldNotSupported,
  fieldRequired,
  fieldTooLong,
  newPath,
} from '@orch/apimachinery/errors';
import type { FieldError, FieldPath } from '@orch/apimachinery/errors';
import { isDNS1123Label, isDNS1123Subdomain } from '@orch/apimachinery/meta';
import type { ApiObject } from '@orch/apimachinery/meta';

/** The signer name v1 refuses (upstream's kubernetes.io/legacy-unknown). */
export const legacyUnknownSignerName = 'orch.io/legacy-unknown';

/** Upstream's allValidUsages (certificates.KeyUsage), sorted as field.NotSupported lists them. */
export const allValidUsages: readonly string[] = [
  'any',
  'cert sign',
  'client auth',
  'code signing',
  'content commitment',
  'crl sign',
  'data encipherment',
  'decipher only',
  'digital signature',
  'email protection',
  'encipher only',
  'ipsec end system',
  'ipsec tunnel',
  'ipsec user',
  'key agreement',
  'key encipherment',
  'microsoft sgc',
  'netscape sgc',
  'ocsp signing',
  's/mime',
  'server auth',
  'signing',
  'timestamping',
];
const validUsages = new Set(allValidUsages);

const allStatusValues = ['False', 'True', 'Unknown'];
const trueOnly = ['True'];
/** Condition types whose status may only be True, and that updates may not remove. */
const trueConditionTypes = new Set(['Approved', 'Denied', 'Failed']);

const maxDomainSegmentLength = 253;
const maxPathSegmentLength = 316;
const minExpirationSeconds = 600;

type Json = Record<string, unknown>;
export interface Condition {
  type?: unknown;
  status?: unknown;
  [k: string]: unknown;
}

export const specOf = (o: ApiObject): Json => (o['spec'] ?? {}) as Json;
export const statusOf = (o: ApiObject): Json => (o['status'] ?? {}) as Json;
export const conditionsOf = (o: ApiObject): Condition[] => {
  const c = statusOf(o)['conditions'];
  return Array.isArray(c) ? (c as Condition[]) : [];
};

/** Upstream's ValidateSignerName: `<domain>/<path>`, a DNS domain of two labels or more. */
export function validateSignerName(path: FieldPath, signerName: string): FieldError[] {
  if (signerName === '') return [fieldRequired(path, '')];
  const segments = signerName.split('/');
  if (segments.length !== 2) {
    return [
      fieldInvalid(
        path,
        signerName,
        "must be a fully qualified domain and path of the form 'example.com/signer-name'"
      ),
    ];
  }
  const [domain = '', rest = ''] = segments;
  const errs: FieldError[] = [];
  if (domain.length > maxDomainSegmentLength) errs.push(fieldTooLong(path, maxDomainSegmentLength));
  const labels = domain.split('.');
  for (const label of labels) {
    const problems = isDNS1123Label(label);
    if (problems.length > 0) {
      for (const p of problems) {
        errs.push(fieldInvalid(path, domain, `validating label ${JSON.stringify(label)}: ${p}`));
      }
      break;
    }
  }
  if (labels.length < 2) {
    errs.push(
      fieldInvalid(path, domain, 'should be a domain with at least two segments separated by dots')
    );
  }
  if (rest.length > maxPathSegmentLength) errs.push(fieldTooLong(path, maxPathSegmentLength));
  for (const component of rest.split('.')) {
    const problems = isDNS1123Subdomain(component);
    if (problems.length > 0) {
      for (const p of problems) {
        errs.push(
          fieldInvalid(path, rest, `validating component ${JSON.stringify(component)}: ${p}`)
        );
      }
      break;
    }
  }
  return errs;
}

/** The blocks of a PEM text (Go's pem.Decode in a loop); `headers`: any `Key: value` line. */
export function pemBlocks(text: string): { type: string; headers: boolean; der: Buffer }[] {
  const out: { type: string; headers: boolean; der: Buffer }[] = [];
  const re = /-----BEGIN ([^-\r\n]*)-----\r?\n([\s\S]*?)-----END \1-----/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const lines = (m[2] ?? '').split(/\r?\n/);
    const headers = lines.some((l) => /^[\x21-\x39\x3b-\x7e]+:/.test(l));
    const body = lines.filter((l) => !/^[\x21-\x39\x3b-\x7e]+:/.test(l)).join('');
    const b64 = body.replace(/\s+/g, '');
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(b64)) continue;
    out.push({ type: m[1] ?? '', headers, der: Buffer.from(b64, 'base64') });
  }
  return out;
}

/** []byte fields travel as base64 in JSON. */
function bytesField(v: unknown): Buffer | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') return undefined;
  return Buffer.from(v, 'base64');
}

/** Upstream's validateCertificate: CERTIFICATE blocks only, no headers, each parseable. */
export function certificateProblem(pem: Buffer): string | undefined {
  if (pem.length === 0) return undefined;
  const blocks = pemBlocks(pem.toString('latin1'));
  if (blocks.length === 0) return 'must contain at least one CERTIFICATE PEM block';
  for (const b of blocks) {
    if (b.type !== 'CERTIFICATE') {
      return `only CERTIFICATE PEM blocks are allowed, found ${JSON.stringify(b.type)}`;
    }
    if (b.headers) return 'no PEM block headers are permitted';
    try {
      new X509Certificate(b.der);
    } catch (err) {
      return `x509: ${(err as Error).message}`;
    }
  }
  return undefined;
}

/** validateConditions: types required and unique, status values, Approved/Denied exclusive. */
export function validateConditions(obj: ApiObject): FieldError[] {
  const path = newPath('status', 'conditions');
  const errs: FieldError[] = [];
  const seen = new Set<unknown>();
  let approved = false;
  let denied = false;
  for (const [i, c] of conditionsOf(obj).entries()) {
    const type = typeof c.type === 'string' ? c.type : '';
    if (type === '') errs.push(fieldRequired(path.index(i).child('type'), ''));
    const allowed = trueConditionTypes.has(type) ? trueOnly : allStatusValues;
    const status = typeof c.status === 'string' ? c.status : '';
    if (status === '') errs.push(fieldRequired(path.index(i).child('status'), ''));
    else if (!allowed.includes(status)) {
      errs.push(fieldNotSupported(path.index(i).child('status'), status, allowed));
    }
    if (type === 'Approved') {
      approved = true;
      if (denied) {
        errs.push(
          fieldInvalid(
            path.index(i).child('type'),
            type,
            'Approved and Denied conditions are mutually exclusive'
          )
        );
      }
    } else if (type === 'Denied') {
      denied = true;
      if (approved) {
        errs.push(
          fieldInvalid(
            path.index(i).child('type'),
            type,
            'Approved and Denied conditions are mutually exclusive'
          )
        );
      }
    }
    if (seen.has(type)) errs.push(fieldDuplicate(path.index(i).child('type'), type));
    seen.add(type);
  }
  return errs;
}

/** upstream's validateCertificateSigningRequest (metadata is the Store's). */
export function validateCertificateSigningRequest(obj: ApiObject): FieldError[] {
  const spec = specOf(obj);
  const specPath = newPath('spec');
  const errs: FieldError[] = [];
  const request = bytesField(spec['request']);
  const blocks = request ? pemBlocks(request.toString('latin1')) : [];
  if (!request || request.length === 0) {
    errs.push(fieldRequired(specPath.child('request'), ''));
  } else if (blocks[0]?.type !== 'CERTIFICATE REQUEST') {
    errs.push(
      fieldInvalid(
        specPath.child('request'),
        '<request data>',
        'PEM block type must be CERTIFICATE REQUEST'
      )
    );
  }
  const usages = Array.isArray(spec['usages']) ? (spec['usages'] as unknown[]) : [];
  if (usages.length === 0) errs.push(fieldRequired(specPath.child('usages'), ''));
  for (const [i, u] of usages.entries()) {
    if (typeof u !== 'string' || !validUsages.has(u)) {
      errs.push(fieldNotSupported(specPath.child('usages').index(i), u, allValidUsages));
    }
  }
  const seen = new Set<unknown>();
  for (const [i, u] of usages.entries()) {
    if (seen.has(u)) errs.push(fieldDuplicate(specPath.child('usages').index(i), u));
    seen.add(u);
  }
  const signerName = typeof spec['signerName'] === 'string' ? spec['signerName'] : '';
  if (signerName === legacyUnknownSignerName) {
    errs.push(
      fieldInvalid(
        specPath.child('signerName'),
        signerName,
        'the legacy signerName is not allowed via this API version'
      )
    );
  } else {
    errs.push(...validateSignerName(specPath.child('signerName'), signerName));
  }
  const exp = spec['expirationSeconds'];
  if (typeof exp === 'number' && exp < minExpirationSeconds) {
    errs.push(
      fieldInvalid(
        specPath.child('expirationSeconds'),
        exp,
        'may not specify a duration less than 600 seconds (10 minutes)'
      )
    );
  }
  errs.push(...validateConditions(obj));
  const cert = bytesField(statusOf(obj)['certificate']);
  const problem = cert ? certificateProblem(cert) : undefined;
  if (problem) {
    errs.push(fieldInvalid(newPath('status', 'certificate'), '<certificate data>', problem));
  }
  return errs;
}

/**
 * upstream's validateCertificateSigningRequestUpdate: the object's own rules, Approved, Denied
 * and Failed conditions never removed, a set certificate never changed. As upstream's
 * getValidationOptions, a rule the stored object already broke does not block its updates (an
 * object stored before these rules stays writable): an error of the same type on the same field
 * as one of the stored object's is dropped.
 */
export function validateCertificateSigningRequestUpdate(
  obj: ApiObject,
  old: ApiObject
): FieldError[] {
  const key = (e: FieldError): string => `${e.type} ${e.field}`;
  const already = new Set(validateCertificateSigningRequest(old).map(key));
  const errs = validateCertificateSigningRequest(obj).filter((e) => !already.has(key(e)));
  for (const t of ['Approved', 'Denied', 'Failed']) {
    const before = conditionsOf(old).filter((c) => c.type === t).length;
    const after = conditionsOf(obj).filter((c) => c.type === t).length;
    if (after < before) {
      errs.push(
        fieldForbidden(
          newPath('status', 'conditions'),
          `updates may not remove a condition of type ${JSON.stringify(t)}`
        )
      );
    }
  }
  const oldCert = statusOf(old)['certificate'];
  if (
    typeof oldCert === 'string' &&
    oldCert !== '' &&
    !isDeepStrictEqual(oldCert, statusOf(obj)['certificate'])
  ) {
    errs.push(
      fieldInvalid(
        newPath('status', 'certificate'),
        '[omitted]',
        'updates may not modify existing certificate content'
      )
    );
  }
  return errs;
}
