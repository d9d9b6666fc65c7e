// Every row of the spec's built-in signer table (subjects, extensions and usages, CA bit) as
// test rows, for requests made by @peculiar/x509 and by `openssl req`: accepted rows are signed
// by a real CA and the certificate checked (subject, SANs, usages, CA false); refused rows fail
// with upstream's message. Plus the lifetime rules (spec "Rules for status.certificate").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { X509Certificate as NodeCert } from 'node:crypto';
import { createCertificateAuthority } from '@orch/component-base/pki';
import '../x509.js';
import * as x509 from '@peculiar/x509';
import {
  clientNodeAgentSignerName,
  clientSignerName,
  nodeAgentServingSignerName,
  parseCsr,
} from '../csr.js';
import { csrObject, opensslRequest, x509Request } from '../test-requests.js';
import type { RequestSubject } from '../test-requests.js';
import { boundaries, loadAuthority, signRequest } from './authority.js';
import { builtinSignerValidators, requestFacts } from './signer-rules.js';
import { certificateDurationMs, signerBackdateMs, signerShortMs } from './signer-controller.js';

const client = ['client auth'];
const clientFull = ['digital signature', 'key encipherment', 'client auth'];
const serving = ['key encipherment', 'digital signature', 'server auth'];
const node = { cn: 'system:node:n1', orgs: ['system:nodes'] };

interface Row {
  row: string;
  signer: string;
  subject: RequestSubject;
  usages: string[];
  /** undefined: accepted; otherwise the Failed message. */
  fails?: string;
}

const rows: Row[] = [
  // orch.io/apiserver-client
  {
    row: 'apiserver-client: subject unrestricted',
    signer: clientSignerName,
    subject: { cn: 'alice', orgs: ['dev', 'ops'] },
    usages: client,
  },
  {
    row: 'apiserver-client: optional signing usages',
    signer: clientSignerName,
    subject: { cn: 'bob' },
    usages: clientFull,
  },
  {
    row: 'apiserver-client: subjectAltName allowed',
    signer: clientSignerName,
    subject: { cn: 'carol', dns: ['carol.example'], emails: ['c@example.com'] },
    usages: client,
  },
  {
    row: 'apiserver-client: usages must include client auth',
    signer: clientSignerName,
    subject: { cn: 'dave' },
    usages: ['digital signature'],
    fails: 'invalid usage for client certificate: missing required client auth',
  },
  {
    row: 'apiserver-client: only digital signature, key encipherment, client auth',
    signer: clientSignerName,
    subject: { cn: 'erin' },
    usages: ['client auth', 'server auth'],
    fails: 'invalid usage for client certificate: server auth',
  },
  {
    row: 'apiserver-client: CA bit not allowed',
    signer: clientSignerName,
    subject: { cn: 'frank', ca: true },
    usages: client,
    fails: 'the CA bit is not allowed',
  },
  {
    row: 'apiserver-client: only subjectAltName and key usage extensions',
    signer: clientSignerName,
    subject: { cn: 'gina', otherExtension: true },
    usages: client,
    fails: 'extension 2.5.29.32 is not allowed',
  },
  // orch.io/apiserver-client-node-agent
  {
    row: 'node-agent client: system:nodes, system:node:<name>, exact usages',
    signer: clientNodeAgentSignerName,
    subject: node,
    usages: clientFull,
  },
  {
    row: 'node-agent client: organization must be system:nodes',
    signer: clientNodeAgentSignerName,
    subject: { cn: 'system:node:n1', orgs: ['other'] },
    usages: clientFull,
    fails: 'subject organization is not system:nodes',
  },
  {
    row: 'node-agent client: no other organization',
    signer: clientNodeAgentSignerName,
    subject: { cn: 'system:node:n1', orgs: ['system:nodes', 'system:masters'] },
    usages: clientFull,
    fails: 'subject organization is not system:nodes',
  },
  {
    row: 'node-agent client: user name starts with system:node:',
    signer: clientNodeAgentSignerName,
    subject: { cn: 'n1', orgs: ['system:nodes'] },
    usages: clientFull,
    fails: 'subject common name does not begin with system:node:',
  },
  {
    row: 'node-agent client: DNS subjectAltName forbidden',
    signer: clientNodeAgentSignerName,
    subject: { ...node, dns: ['n1'] },
    usages: clientFull,
    fails: 'DNS subjectAltNames are not allowed',
  },
  {
    row: 'node-agent client: IP subjectAltName forbidden',
    signer: clientNodeAgentSignerName,
    subject: { ...node, ips: ['10.0.0.1'] },
    usages: clientFull,
    fails: 'IP subjectAltNames are not allowed',
  },
  {
    row: 'node-agent client: email subjectAltName forbidden',
    signer: clientNodeAgentSignerName,
    subject: { ...node, emails: ['n@example.com'] },
    usages: clientFull,
    fails: 'Email subjectAltNames are not allowed',
  },
  {
    row: 'node-agent client: URI subjectAltName forbidden',
    signer: clientNodeAgentSignerName,
    subject: { ...node, uris: ['spiffe://n1'] },
    usages: clientFull,
    fails: 'URI subjectAltNames are not allowed',
  },
  {
    row: 'node-agent client: usages exactly key encipherment, digital signature, client auth',
    signer: clientNodeAgentSignerName,
    subject: node,
    usages: client,
    fails: 'usages did not match [client auth digital signature key encipherment]',
  },
  {
    row: 'node-agent client: no extra usage',
    signer: clientNodeAgentSignerName,
    subject: node,
    usages: [...clientFull, 'server auth'],
    fails: 'usages did not match [client auth digital signature key encipherment]',
  },
  {
    row: 'node-agent client: CA bit not allowed',
    signer: clientNodeAgentSignerName,
    subject: { ...node, ca: true },
    usages: clientFull,
    fails: 'the CA bit is not allowed',
  },
  {
    row: 'node-agent client: key usage only',
    signer: clientNodeAgentSignerName,
    subject: { ...node, otherExtension: true },
    usages: clientFull,
    fails: 'extension 2.5.29.32 is not allowed',
  },
  // orch.io/node-agent-serving
  {
    row: 'node-agent serving: DNS and IP names, exact usages',
    signer: nodeAgentServingSignerName,
    subject: { ...node, dns: ['n1.example'], ips: ['10.0.0.1'] },
    usages: serving,
  },
  {
    row: 'node-agent serving: one IP name is enough',
    signer: nodeAgentServingSignerName,
    subject: { ...node, ips: ['10.0.0.1'] },
    usages: serving,
  },
  {
    row: 'node-agent serving: at least one DNS or IP name',
    signer: nodeAgentServingSignerName,
    subject: node,
    usages: serving,
    fails: 'at least one of dnsNames or ipAddresses subjectAltNames are required',
  },
  {
    row: 'node-agent serving: email names forbidden',
    signer: nodeAgentServingSignerName,
    subject: { ...node, dns: ['n1'], emails: ['n@example.com'] },
    usages: serving,
    fails: 'email subjectAltNames are not allowed',
  },
  {
    row: 'node-agent serving: URI names forbidden',
    signer: nodeAgentServingSignerName,
    subject: { ...node, dns: ['n1'], uris: ['spiffe://n1'] },
    usages: serving,
    fails: 'uri subjectAltNames are not allowed',
  },
  {
    row: 'node-agent serving: organization must be system:nodes',
    signer: nodeAgentServingSignerName,
    subject: { cn: 'system:node:n1', dns: ['n1'] },
    usages: serving,
    fails: 'subject organization is not system:nodes',
  },
  {
    row: 'node-agent serving: user name starts with system:node:',
    signer: nodeAgentServingSignerName,
    subject: { cn: 'n1', orgs: ['system:nodes'], dns: ['n1'] },
    usages: serving,
    fails: 'subject common name does not begin with system:node:',
  },
  {
    row: 'node-agent serving: usages exactly key encipherment, digital signature, server auth',
    signer: nodeAgentServingSignerName,
    subject: { ...node, dns: ['n1'] },
    usages: clientFull,
    fails: 'usages did not match [digital signature key encipherment server auth]',
  },
  {
    row: 'node-agent serving: CA bit not allowed',
    signer: nodeAgentServingSignerName,
    subject: { ...node, dns: ['n1'], ca: true },
    usages: serving,
    fails: 'the CA bit is not allowed',
  },
];

const caPem = await createCertificateAuthority({ commonName: 'test-ca' });
const ca = await loadAuthority(caPem.certPem, caPem.keyPem);

const ekuOid: Record<string, string> = {
  'client auth': '1.3.6.1.5.5.7.3.2',
  'server auth': '1.3.6.1.5.5.7.3.1',
};

for (const maker of ['@peculiar/x509', 'openssl req'] as const) {
  for (const r of rows) {
    test(`[${maker}] signer table row "${r.row}": ${r.fails ? 'failed' : 'signed'}`, async () => {
      const made =
        maker === 'openssl req' ? opensslRequest(r.subject) : await x509Request(r.subject);
      const csr = csrObject('t', made.pem, r.signer, r.usages);
      const req = parseCsr(csr);
      const validate = builtinSignerValidators.get(r.signer)!;
      if (r.fails) {
        assert.throws(() => validate(requestFacts(req), r.usages), { message: r.fails });
        return;
      }
      validate(requestFacts(req), r.usages);
      const pem = await signRequest(ca, req, {
        ttlMs: 3600_000,
        usages: r.usages,
        backdateMs: signerBackdateMs,
        shortMs: signerShortMs,
        now: new Date(),
      });
      const cert = new x509.X509Certificate(pem);
      assert.equal(
        await cert.verify({ publicKey: ca.certificate.publicKey, signatureOnly: true }),
        true
      );
      assert.equal(cert.subject, req.subject, 'subject copied from the request');
      assert.equal(cert.getExtension(x509.BasicConstraintsExtension)?.ca, false, 'CA bit false');
      const ekus = cert.getExtension(x509.ExtendedKeyUsageExtension)?.usages ?? [];
      for (const u of r.usages) if (ekuOid[u]) assert.ok(ekus.includes(ekuOid[u]), `EKU ${u}`);
      assert.equal(
        ekus.length,
        r.usages.filter((u) => ekuOid[u]).length,
        'no EKU beyond the usages'
      );
      const node = new NodeCert(pem);
      const wantSans = [
        ...(r.subject.dns ?? []).map((d) => `DNS:${d}`),
        ...(r.subject.ips ?? []).map((i) => `IP Address:${i}`),
        ...(r.subject.emails ?? []).map((e) => `email:${e}`),
      ];
      assert.deepEqual((node.subjectAltName ?? '').split(', ').filter(Boolean), wantSans);
      assert.ok(node.checkIssued(new NodeCert(caPem.certPem)), 'issued by the cluster CA');
    });
  }
}

test('a request whose signature does not verify is not signed', async () => {
  const a = await x509Request({ cn: 'alice' });
  // the subject changed after signing (same length, still DER): the signature no longer matches
  const der = Buffer.from(new x509.Pkcs10CertificateRequest(a.pem).rawData);
  const at = der.indexOf(Buffer.from('alice'));
  assert.ok(at > 0);
  der.write('malic', at);
  const forged = new x509.Pkcs10CertificateRequest(der);
  assert.equal(forged.subjectName.getField('CN')[0], 'malic');
  await assert.rejects(
    signRequest(ca, forged, {
      ttlMs: 3600_000,
      usages: client,
      backdateMs: 0,
      shortMs: 0,
      now: new Date(),
    }),
    /unable to verify certificate request signature/
  );
});

test('lifetime rows: min(--cluster-signing-duration, expirationSeconds), at least 10 minutes', () => {
  const year = 8760 * 3600_000;
  const rowsMs: [string, number, number | undefined, number][] = [
    ['expirationSeconds unset: the signer duration', year, undefined, year],
    ['expirationSeconds shorter: expirationSeconds', year, 3600, 3600_000],
    ['expirationSeconds longer: the signer duration', 3600_000, 7200, 3600_000],
    ['expirationSeconds 600: 10 minutes', year, 600, 600_000],
    ['below 10 minutes (older objects): 10 minutes', year, 60, 600_000],
  ];
  for (const [row, ttl, exp, want] of rowsMs)
    assert.equal(certificateDurationMs(ttl, exp), want, row);
});

test('lifetime: backdated 5 minutes; long lifetimes end 5 minutes early; never past the CA', () => {
  const now = new Date('2030-01-01T00:00:00Z');
  const caEnd = new Date('2031-01-01T00:00:00Z');
  const short = boundaries(
    { ttlMs: 3600_000, backdateMs: signerBackdateMs, shortMs: signerShortMs, now },
    caEnd
  );
  assert.equal(short.notBefore.toISOString(), '2029-12-31T23:55:00.000Z');
  assert.equal(short.notAfter.toISOString(), '2030-01-01T01:00:00.000Z', 'short: full hour');
  const long = boundaries(
    { ttlMs: 24 * 3600_000, backdateMs: signerBackdateMs, shortMs: signerShortMs, now },
    caEnd
  );
  assert.equal(
    long.notAfter.toISOString(),
    '2030-01-01T23:55:00.000Z',
    'long: the backdate taken off'
  );
  const capped = boundaries(
    { ttlMs: 2 * 8760 * 3600_000, backdateMs: signerBackdateMs, shortMs: signerShortMs, now },
    caEnd
  );
  assert.equal(capped.notAfter.toISOString(), caEnd.toISOString(), 'capped at the CA');
  assert.throws(
    () =>
      boundaries(
        { ttlMs: 3600_000, backdateMs: 0, shortMs: 0, now: new Date('2032-01-01T00:00:00Z') },
        caEnd
      ),
    /the signer has expired/
  );
});
