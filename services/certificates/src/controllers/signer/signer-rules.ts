// The rules of the built-in signers (upstream pkg/controller/certificates/signer/signer.go's
// isKubeAPIServerClient / isKubeletServing and pkg/apis/certificates/v1 ValidateKubeletClientCSR,
// checked against the spec's signer table): subjects, requested extensions, usages and the CA
// bit. A request breaking them gets a Failed condition, never a certificate; the error's message
// is the condition's.
import '../x509.js';
import * as x509 from '@peculiar/x509';
import { clientNodeAgentSignerName, clientSignerName, nodeAgentServingSignerName } from '../csr.js';

/** What the rules read of a parsed PKCS#10 request. */
export interface RequestFacts {
  commonName: string;
  organizations: string[];
  dnsNames: string[];
  ipAddresses: string[];
  emailAddresses: string[];
  uris: string[];
  /** OIDs of the requested extensions (the extensionRequest attribute). */
  extensions: string[];
  /** basicConstraints requested with cA TRUE. */
  requestsCa: boolean;
}

export const oidSubjectAltName = '2.5.29.17';
export const oidKeyUsage = '2.5.29.15';
export const oidExtKeyUsage = '2.5.29.37';
export const oidBasicConstraints = '2.5.29.19';

/** Reads the subject, SANs and requested extensions of a request. */
export function requestFacts(req: x509.Pkcs10CertificateRequest): RequestFacts {
  const facts: RequestFacts = {
    commonName: req.subjectName.getField('CN')[0] ?? '',
    organizations: req.subjectName.getField('O'),
    dnsNames: [],
    ipAddresses: [],
    emailAddresses: [],
    uris: [],
    extensions: req.extensions.map((e) => e.type),
    requestsCa: false,
  };
  const san = req.getExtension(oidSubjectAltName);
  if (san) {
    for (const n of new x509.SubjectAlternativeNameExtension(san.rawData).names.items) {
      if (n.type === 'dns') facts.dnsNames.push(n.value);
      else if (n.type === 'ip') facts.ipAddresses.push(n.value);
      else if (n.type === 'email') facts.emailAddresses.push(n.value);
      else if (n.type === 'url') facts.uris.push(n.value);
      else facts.uris.push(`${n.type}:${n.value}`); // other name forms: refused as URIs are
    }
  }
  const basic = req.getExtension(oidBasicConstraints);
  if (basic) facts.requestsCa = new x509.BasicConstraintsExtension(basic.rawData).ca;
  return facts;
}

export class SignerValidationError extends Error {
  override readonly name = 'SignerValidationError';
}

const fail = (message: string): never => {
  throw new SignerValidationError(message);
};

/** Equal as sets, with the same length (upstream equalUnsorted / sets.Equal). */
function sameUsages(want: readonly string[], got: readonly string[]): boolean {
  const g = new Set(got);
  return g.size === got.length && want.length === got.length && want.every((u) => g.has(u));
}

/** The CA bit and the extensions outside a signer's allowance. */
function checkExtensions(facts: RequestFacts, allowed: readonly string[]): void {
  if (facts.requestsCa) fail('the CA bit is not allowed');
  for (const oid of facts.extensions) {
    if (oid === oidBasicConstraints) continue; // cA FALSE: the certificate says so anyway
    if (!allowed.includes(oid)) fail(`extension ${oid} is not allowed`);
  }
}

const nodeClientUsages = ['key encipherment', 'digital signature', 'client auth'] as const;
const nodeServingUsages = ['key encipherment', 'digital signature', 'server auth'] as const;

/** orch.io/apiserver-client: any subject; usages client auth plus optional signing ones. */
export function validateApiserverClient(facts: RequestFacts, usages: readonly string[]): void {
  checkExtensions(facts, [oidSubjectAltName, oidKeyUsage, oidExtKeyUsage]);
  let clientAuth = false;
  for (const u of usages) {
    if (u === 'client auth') clientAuth = true;
    else if (u !== 'digital signature' && u !== 'key encipherment')
      fail(`invalid usage for client certificate: ${u}`);
  }
  if (!clientAuth) fail('invalid usage for client certificate: missing required client auth');
}

/** The node-client rules (upstream ValidateKubeletClientCSR, messages as upstream). */
export function validateNodeClient(facts: RequestFacts, usages: readonly string[]): void {
  if (facts.organizations.length !== 1 || facts.organizations[0] !== 'system:nodes')
    fail('subject organization is not system:nodes');
  if (facts.dnsNames.length > 0) fail('DNS subjectAltNames are not allowed');
  if (facts.emailAddresses.length > 0) fail('Email subjectAltNames are not allowed');
  if (facts.ipAddresses.length > 0) fail('IP subjectAltNames are not allowed');
  if (facts.uris.length > 0) fail('URI subjectAltNames are not allowed');
  if (!facts.commonName.startsWith('system:node:'))
    fail('subject common name does not begin with system:node:');
  if (!sameUsages(nodeClientUsages, usages))
    fail(`usages did not match [${[...nodeClientUsages].sort().join(' ')}]`);
  checkExtensions(facts, [oidKeyUsage, oidExtKeyUsage]);
}

/** orch.io/node-agent-serving (upstream isKubeletServing, messages as upstream). */
export function validateNodeServing(facts: RequestFacts, usages: readonly string[]): void {
  if (facts.organizations.length !== 1 || facts.organizations[0] !== 'system:nodes')
    fail('subject organization is not system:nodes');
  if (facts.emailAddresses.length > 0) fail('email subjectAltNames are not allowed');
  if (facts.dnsNames.length === 0 && facts.ipAddresses.length === 0)
    fail('at least one of dnsNames or ipAddresses subjectAltNames are required');
  if (facts.uris.length > 0) fail('uri subjectAltNames are not allowed');
  if (!sameUsages(nodeServingUsages, usages))
    fail(`usages did not match [${[...nodeServingUsages].sort().join(' ')}]`);
  if (!facts.commonName.startsWith('system:node:'))
    fail('subject common name does not begin with system:node:');
  checkExtensions(facts, [oidSubjectAltName, oidKeyUsage, oidExtKeyUsage]);
}

export type SignerValidator = (facts: RequestFacts, usages: readonly string[]) => void;

/** The built-in signers this service can serve, by name. */
export const builtinSignerValidators: ReadonlyMap<string, SignerValidator> = new Map([
  [clientSignerName, validateApiserverClient],
  [clientNodeAgentSignerName, validateNodeClient],
  [nodeAgentServingSignerName, validateNodeServing],
]);

/** Whether a request is a node client request (upstream IsKubeletClientCSR), for the approver. */
export function isNodeClientRequest(facts: RequestFacts, usages: readonly string[]): boolean {
  try {
    validateNodeClient(facts, usages);
    return true;
  } catch (err) {
    if (err instanceof SignerValidationError) return false;
    throw err;
  }
}
