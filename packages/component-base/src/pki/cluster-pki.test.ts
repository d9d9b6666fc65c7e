import assert from 'node:assert/strict';
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, request } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { after, before, describe, it } from 'node:test';

import { createCertificateAuthority } from './certificate-authority.js';
import type { ClusterPki } from './cluster-pki.js';
import { ensureClusterPki } from './cluster-pki.js';
import { issueCertificate } from './issue-certificate.js';
import { writeKubeconfig } from './kubeconfig.js';

/** Subject lines of a node X509Certificate, e.g. `['CN=a', 'O=b', 'O=c']`. */
function subjectLines(cert: X509Certificate): string[] {
  return cert.subject.split('\n');
}

describe('ensureClusterPki', () => {
  let dir: string;
  let pki: ClusterPki;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'orch-pki-test-'));
    pki = await ensureClusterPki(dir, { extraSans: ['orch.example', '10.0.0.7'] });
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('issues certificates that chain to the CA', async () => {
    const ca = new X509Certificate(await readFile(pki.caFile));
    assert.equal(ca.ca, true);
    assert.ok(ca.verify(ca.publicKey), 'CA is self-signed');
    for (const name of ['gateway', 'storage', 'certificates', 'admin']) {
      const { certFile, keyFile } = pki.file(name);
      const cert = new X509Certificate(await readFile(certFile));
      assert.equal(cert.ca, false, name);
      assert.ok(cert.verify(ca.publicKey), `${name} is signed by the CA`);
      assert.ok(cert.checkIssued(ca), `${name} is issued by the CA`);
      assert.ok(cert.checkPrivateKey(createPrivateKey(await readFile(keyFile))), name);
      const keyPem = await readFile(keyFile, 'utf8');
      assert.match(keyPem, /^-----BEGIN PRIVATE KEY-----\n/);
      assert.equal((await stat(keyFile)).mode & 0o777, 0o600, `${name}.key mode`);
    }
  });

  it('gives component certificates their names, group and SANs', async () => {
    const cert = new X509Certificate(await readFile(pki.file('gateway').certFile));
    assert.deepEqual(subjectLines(cert), ['CN=system:orch:gateway', 'O=system:orch-components']);
    const sans = cert.subjectAltName?.split(', ') ?? [];
    for (const san of [
      'DNS:localhost',
      'DNS:gateway',
      'DNS:orch.example',
      'IP Address:127.0.0.1',
      'IP Address:0:0:0:0:0:0:0:1',
      'IP Address:10.0.0.7',
    ]) {
      assert.ok(sans.includes(san), `SAN ${san} in ${cert.subjectAltName}`);
    }
    assert.ok(cert.checkIP('127.0.0.1'));
    assert.ok(cert.checkHost('gateway'));
    assert.deepEqual(cert.keyUsage?.sort(), ['1.3.6.1.5.5.7.3.1', '1.3.6.1.5.5.7.3.2']);

    const admin = new X509Certificate(await readFile(pki.file('admin').certFile));
    assert.deepEqual(subjectLines(admin), ['CN=orch-admin', 'O=system:masters']);
    assert.deepEqual(admin.keyUsage, ['1.3.6.1.5.5.7.3.2']);
    const authorizer = new X509Certificate(await readFile(pki.file('authorizer-client').certFile));
    assert.deepEqual(subjectLines(authorizer), ['CN=system:orch:authorizer', 'O=system:masters']);
    assert.deepEqual(authorizer.keyUsage, ['1.3.6.1.5.5.7.3.2']);
    const monitoring = new X509Certificate(await readFile(pki.file('monitoring').certFile));
    assert.deepEqual(subjectLines(monitoring), ['CN=orch-monitoring', 'O=system:monitoring']);
    assert.deepEqual(monitoring.keyUsage, ['1.3.6.1.5.5.7.3.2']);
  });

  it('puts one O RDN per group', async () => {
    const ca = await createCertificateAuthority({ commonName: 'test-ca' });
    const pair = await issueCertificate(ca, {
      commonName: 'jane',
      organizations: ['dev', 'ops'],
      usages: ['client'],
    });
    const cert = new X509Certificate(pair.certPem);
    assert.deepEqual(subjectLines(cert), ['CN=jane', 'O=dev', 'O=ops']);
    assert.ok(cert.verify(new X509Certificate(ca.certPem).publicKey));
    assert.equal(cert.subjectAltName, undefined);
  });

  it('authenticates both sides of a mutual TLS handshake', async () => {
    const gateway = pki.file('gateway');
    const admin = pki.file('admin');
    const server = createServer(
      {
        cert: await readFile(gateway.certFile),
        key: await readFile(gateway.keyFile),
        ca: pki.caCertPem,
        requestCert: true,
        rejectUnauthorized: true,
      },
      (req: IncomingMessage, res: ServerResponse) => {
        const peer = (req.socket as TLSSocket).getPeerCertificate();
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ subject: peer.subject }));
      }
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const clientCert = await readFile(admin.certFile);
      const clientKey = await readFile(admin.keyFile);
      const body = await new Promise<string>((resolve, reject) => {
        const req = request(
          {
            host: '127.0.0.1',
            port,
            path: '/',
            ca: pki.caCertPem,
            cert: clientCert,
            key: clientKey,
          },
          (res) => {
            let data = '';
            res.setEncoding('utf8');
            res.on('data', (chunk: string) => (data += chunk));
            res.on('end', () => resolve(data));
            res.on('error', reject);
          }
        );
        req.on('error', reject);
        req.end();
      });
      const { subject } = JSON.parse(body) as { subject: { CN: string; O: string | string[] } };
      assert.equal(subject.CN, 'orch-admin');
      assert.equal(subject.O, 'system:masters');
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('rejects a client without a certificate from the CA', async () => {
    const gateway = pki.file('gateway');
    const server = createServer(
      {
        cert: await readFile(gateway.certFile),
        key: await readFile(gateway.keyFile),
        ca: pki.caCertPem,
        requestCert: true,
        rejectUnauthorized: true,
      },
      (_req, res) => res.end('ok')
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      await assert.rejects(
        new Promise<void>((resolve, reject) => {
          const req = request({ host: '127.0.0.1', port, ca: pki.caCertPem }, (res) => {
            res.resume();
            res.on('end', resolve);
          });
          req.on('error', reject);
          req.end();
        })
      );
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('is idempotent: reuses the CA and keeps existing certificates', async () => {
    const caBefore = await readFile(pki.caFile);
    const gatewayBefore = await readFile(pki.file('gateway').certFile);
    await rm(pki.file('storage').certFile);
    const again = await ensureClusterPki(dir);
    assert.deepEqual(await readFile(again.caFile), caBefore);
    assert.equal(again.caCertPem, caBefore.toString('utf8'));
    assert.deepEqual(await readFile(again.file('gateway').certFile), gatewayBefore);
    const storage = new X509Certificate(await readFile(again.file('storage').certFile));
    assert.ok(storage.checkIssued(new X509Certificate(caBefore)), 'recreated with the same CA');
  });

  it('writes a kubeconfig with embedded credentials', async () => {
    const path = join(dir, 'admin.kubeconfig');
    const admin = pki.file('admin');
    await writeKubeconfig(path, {
      server: 'https://127.0.0.1:6443',
      caFile: pki.caFile,
      certFile: admin.certFile,
      keyFile: admin.keyFile,
    });
    const text = await readFile(path, 'utf8');
    assert.match(text, /^current-context: orch$/m);
    assert.match(text, /^ {4}server: "https:\/\/127\.0\.0\.1:6443"$/m);
    const caData = /certificate-authority-data: (\S+)/.exec(text)?.[1] ?? '';
    assert.equal(Buffer.from(caData, 'base64').toString('utf8'), pki.caCertPem);
    assert.equal((await stat(path)).mode & 0o777, 0o600);
  });
});
