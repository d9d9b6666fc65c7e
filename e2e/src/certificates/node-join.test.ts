// A node joins end to end with real artefacts (spec: bootstrap token secret, cluster-info,
// certificate signing request state machine): the admin creates a bootstrap token secret; the
// node fetches cluster-info anonymously (TLS not yet trusted, as token discovery does), checks
// the detached JWS with jose insisting on HS256 and keyed by the full token, then trusts the CA
// it carries; as system:bootstrap:<id> (kubectl with the token) it creates node client CSRs
// (key and request by `openssl req`, and by @peculiar/x509), which are auto-approved and signed;
// kubectl with the issued certificate is system:node:<name>.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { webcrypto } from 'node:crypto';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compactVerify } from 'jose';
import { parse as parseYaml, stringify } from 'yaml';
import { x509 } from '@orch/component-base/pki';
import { sharedSuite, waitFor } from '@orch/testing';
import type { Suite } from '@orch/testing';
import { runKubectl } from '../kubectl/run-kubectl.js';

let suite: Suite;
const dir = mkdtempSync(join(tmpdir(), 'orch-join-'));
const tokenId = 'e2ejoi';
const token = `${tokenId}.0123456789abcdef`;
const csrPath = '/apis/certificates.orch.io/v1/certificatesigningrequests';

before(async () => {
  suite = await sharedSuite();
  // the gateway's channel to the certificates service (started after it) answers CSR writes
  const probe = await x509NodeRequest('probe');
  await waitFor(
    'CSR writes answered',
    async () =>
      (
        await suite.request(0, 'POST', `${csrPath}?dryRun=All`, {
          apiVersion: 'certificates.orch.io/v1',
          kind: 'CertificateSigningRequest',
          metadata: { name: 'probe' },
          spec: {
            request: Buffer.from(probe.pem).toString('base64'),
            signerName: 'orch.io/apiserver-client',
            usages: ['client auth'],
          },
        })
      ).status === 201,
    { timeoutMs: 60_000, intervalMs: 250 }
  );
});

after(async () => {
  // The shared suite keeps no token of this test (cluster-info would carry its signature) and
  // no CSR of it.
  await suite?.request(
    0,
    'DELETE',
    `/api/v1/namespaces/orch-system/secrets/bootstrap-token-${tokenId}`
  );
  for (const node of ['join-openssl', 'join-x509'])
    await suite?.request(0, 'DELETE', `${csrPath}/node-csr-${node}`);
});

const kubectl = (kubeconfig: string, args: string[], input?: string) =>
  runKubectl(kubeconfig, join(dir, 'cache'), args, input);

/** GET without any credentials and without trusting the server yet. */
function anonymousGet(path: string): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = request(
      new URL(path, suite.gateways[0]),
      { rejectUnauthorized: false, headers: { Accept: 'application/json' } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined });
        });
      }
    );
    req.on('error', reject);
    req.end();
  });
}

function kubeconfigFile(
  name: string,
  server: string,
  caPem: string,
  user: Record<string, string>
): string {
  const path = join(dir, `${name}.kubeconfig`);
  writeFileSync(
    path,
    stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [
        {
          name: 'orch',
          cluster: { server, 'certificate-authority-data': Buffer.from(caPem).toString('base64') },
        },
      ],
      users: [{ name, user }],
      contexts: [{ name, context: { cluster: 'orch', user: name } }],
      'current-context': name,
    })
  );
  return path;
}

async function x509NodeRequest(node: string): Promise<{ pem: string; keyPem: string }> {
  const keys = (await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, [
    'sign',
    'verify',
  ])) as webcrypto.CryptoKeyPair;
  const req = await x509.Pkcs10CertificateRequestGenerator.create({
    name: [{ CN: [`system:node:${node}`] }, { O: ['system:nodes'] }],
    keys,
    signingAlgorithm: { name: 'ECDSA', hash: 'SHA-256' },
  });
  const der = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey));
  return {
    pem: req.toString('pem'),
    keyPem: `-----BEGIN PRIVATE KEY-----\n${der.toString('base64').replace(/(.{64})/g, '$1\n')}\n-----END PRIVATE KEY-----\n`,
  };
}

function opensslNodeRequest(node: string): { pem: string; keyPem: string } {
  const key = join(dir, `${node}.key`);
  const out = join(dir, `${node}.csr`);
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
      key,
      '-out',
      out,
      '-subj',
      `/O=system:nodes/CN=system:node:${node}`,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] }
  );
  return { pem: readFileSync(out, 'utf8'), keyPem: readFileSync(key, 'utf8') };
}

test('node join: token secret, cluster-info with JWS, bootstrap identity, auto-approved node CSR, kubectl as system:node:<name>', async () => {
  // 1. the admin creates a bootstrap token secret
  const secret = {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: `bootstrap-token-${tokenId}`, namespace: 'orch-system' },
    type: 'bootstrap.orch.io/token',
    stringData: {
      'token-id': tokenId,
      'token-secret': '0123456789abcdef',
      'usage-bootstrap-authentication': 'true',
      'usage-bootstrap-signing': 'true',
      'auth-extra-groups': 'system:bootstrappers:e2e',
    },
  };
  const created = await suite.request(0, 'POST', '/api/v1/namespaces/orch-system/secrets', secret);
  assert.equal(created.status, 201, created.text);

  // 2. cluster-info, anonymously, until it carries this token's signature
  let data: Record<string, string> = {};
  await waitFor(
    'cluster-info signed for the token',
    async () => {
      const r = await anonymousGet('/api/v1/namespaces/orch-public/configmaps/cluster-info');
      data = r.status === 200 ? r.body.data : {};
      return !!data[`jws-kubeconfig-${tokenId}`];
    },
    { timeoutMs: 60_000, intervalMs: 250 }
  );
  const content = data['kubeconfig']!;
  const [header, , signature] = data[`jws-kubeconfig-${tokenId}`]!.split('.');
  const payload = Buffer.from(content).toString('base64url').replace(/=+$/, '');
  const verified = await compactVerify(
    `${header}.${payload}.${signature}`,
    new TextEncoder().encode(token),
    {
      algorithms: ['HS256'],
    }
  );
  assert.equal(verified.protectedHeader.alg, 'HS256');
  await assert.rejects(
    compactVerify(`${header}.${payload}.${signature}`, new TextEncoder().encode(token), {
      algorithms: ['RS256'],
    })
  );
  const discovered = parseYaml(new TextDecoder().decode(verified.payload)) as {
    clusters: { cluster: { server: string; 'certificate-authority-data': string } }[];
  };
  const server = discovered.clusters[0]!.cluster.server;
  const caPem = Buffer.from(
    discovered.clusters[0]!.cluster['certificate-authority-data'],
    'base64'
  ).toString();
  assert.equal(caPem, readFileSync(suite.pki.caFile, 'utf8'), 'the cluster CA');

  // 3. as system:bootstrap:<id>: kubectl with the token and the discovered CA
  const bootstrap = kubeconfigFile('bootstrap', server, caPem, { token });
  const usages = ['key encipherment', 'digital signature', 'client auth'];
  const nodes: { node: string; made: { pem: string; keyPem: string } }[] = [
    { node: 'join-openssl', made: opensslNodeRequest('join-openssl') },
    { node: 'join-x509', made: await x509NodeRequest('join-x509') },
  ];
  for (const { node, made } of nodes) {
    const csr = {
      apiVersion: 'certificates.orch.io/v1',
      kind: 'CertificateSigningRequest',
      metadata: { name: `node-csr-${node}` },
      spec: {
        request: Buffer.from(made.pem).toString('base64'),
        signerName: 'orch.io/apiserver-client-node-agent',
        usages,
      },
    };
    const file = join(dir, `${node}-csr.json`);
    writeFileSync(file, JSON.stringify(csr));
    const r = await kubectl(bootstrap, ['create', '--raw', csrPath, '-f', file]);
    assert.equal(r.code, 0, r.stderr);
    const spec = (JSON.parse(r.stdout) as { spec: { username: string; groups: string[] } }).spec;
    assert.equal(spec.username, `system:bootstrap:${tokenId}`);
    assert.ok(spec.groups.includes('system:bootstrappers'), spec.groups.join(','));
    assert.ok(spec.groups.includes('system:bootstrappers:e2e'), spec.groups.join(','));
  }

  // 4. auto-approved and signed; the node reads its certificate back with the token
  for (const { node, made } of nodes) {
    let status: { conditions?: { type: string; reason: string }[]; certificate?: string } = {};
    await waitFor(
      `node-csr-${node} issued`,
      async () => {
        const r = await kubectl(bootstrap, ['get', '--raw', `${csrPath}/node-csr-${node}`]);
        status =
          r.code === 0 ? ((JSON.parse(r.stdout) as { status: typeof status }).status ?? {}) : {};
        return !!status.certificate;
      },
      { timeoutMs: 60_000, intervalMs: 250 }
    ).catch((err: unknown) => {
      throw new Error(
        `${String(err)} ${JSON.stringify(status)}\n${suite.logTail('certificates', 40)}`
      );
    });
    const approved = status.conditions?.find((c) => c.type === 'Approved');
    assert.equal(approved?.reason, 'AutoApproved');
    const certPem = Buffer.from(status.certificate!, 'base64').toString();
    const cert = new X509Certificate(certPem);
    assert.ok(cert.checkIssued(new X509Certificate(caPem)));
    assert.match(cert.subject, new RegExp(`CN=system:node:${node}`));

    // 5. kubectl with the issued certificate is system:node:<name>
    const certFile = join(dir, `${node}.crt`);
    const keyFile = join(dir, `${node}-issued.key`);
    writeFileSync(certFile, certPem);
    writeFileSync(keyFile, made.keyPem, { mode: 0o600 });
    const asNode = kubeconfigFile(node, server, caPem, {
      'client-certificate': certFile,
      'client-key': keyFile,
    });
    const nodesList = await kubectl(asNode, ['get', '--raw', '/api/v1/nodes']);
    assert.equal(nodesList.code, 0, `the node group may list nodes: ${nodesList.stderr}`);
    const review = join(dir, `${node}-review.json`);
    writeFileSync(
      review,
      JSON.stringify({
        apiVersion: 'authorization.orch.io/v1',
        kind: 'SelfSubjectAccessReview',
        spec: { resourceAttributes: { verb: 'delete', resource: 'namespaces' } },
      })
    );
    const ssar = await kubectl(asNode, [
      'create',
      '--raw',
      '/apis/authorization.orch.io/v1/selfsubjectaccessreviews',
      '-f',
      review,
    ]);
    assert.equal(ssar.code, 0, ssar.stderr);
    assert.equal(
      (JSON.parse(ssar.stdout) as { status: { allowed: boolean } }).status.allowed,
      false
    );
    const forbidden = await kubectl(asNode, [
      'get',
      '--raw',
      '/apis/rbac.authorization.orch.io/v1/clusterroles',
    ]);
    assert.notEqual(forbidden.code, 0);
    assert.match(
      forbidden.stderr,
      new RegExp(`system:node:${node}`),
      'the error names the node user'
    );
  }
});
