// The certificate controllers through a real suite (etcd, NATS, storage, authorizer, admission,
// gateway, the certificates service with its controllers leader-elected on their Lease): the
// signers issue or fail requests as the signer table says, the approver's SubjectAccessReview
// cases, the cleaner on a fast clock, the bootstrap signer's cluster-info read anonymously and
// its JWS checked with jose, the token cleaner, and a custom signer in another process while
// --signers leaves its name alone.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { fileURLToPath } from 'node:url';
import { compactVerify } from 'jose';
import { parse as parseYaml } from 'yaml';
import { RestClient, loadKubeconfig } from '@orch/apimachinery/client';
import { createLogger } from '@orch/component-base/logs';
import { grantClusterRole, startSuite, userKubeconfig, waitFor } from '@orch/testing';
import type { Suite } from '@orch/testing';
import { CsrCleaner } from './cleaner/csr-cleaner.js';
import { csrPath } from './csr.js';
import type { CertificateSigningRequest } from './csr.js';
import { csrObject, opensslRequest, x509Request } from './test-requests.js';

let suite: Suite;
let ca: X509Certificate;
const log = createLogger('test', 'warn');

before(async () => {
  suite = await startSuite({
    certificates: true,
    certificatesArgs: [
      '--leader-elect-lease-duration=4s',
      '--leader-elect-renew-deadline=3s',
      '--leader-elect-retry-period=500ms',
    ],
  });
  ca = new X509Certificate(readFileSync(suite.pki.caFile));
  // the gateway's channel to the certificates service (started after it) is connected
  const { pem } = await x509Request({ cn: 'probe' });
  await waitFor(
    'CSR writes answered',
    async () =>
      (
        await suite.request(
          0,
          'POST',
          `${csrPath}?dryRun=All`,
          csrObject('probe', pem, 'orch.io/apiserver-client', ['client auth'])
        )
      ).status === 201,
    { timeoutMs: 60_000, intervalMs: 250 }
  );
});

after(async () => {
  await suite?.stop();
});

const admin = (method: string, path: string, body?: unknown) =>
  suite.request(0, method, path, body);

async function create(csr: CertificateSigningRequest): Promise<void> {
  const r = await admin('POST', csrPath, csr);
  assert.equal(r.status, 201, r.text);
}

async function get(name: string): Promise<CertificateSigningRequest> {
  const r = await admin('GET', `${csrPath}/${name}`);
  assert.equal(r.status, 200, r.text);
  return r.body as CertificateSigningRequest;
}

async function approve(name: string, type: 'Approved' | 'Denied' = 'Approved'): Promise<void> {
  const c = await get(name);
  const r = await admin('PUT', `${csrPath}/${name}/approval`, {
    ...c,
    status: {
      ...c.status,
      conditions: [
        ...(c.status?.conditions ?? []),
        { type, status: 'True', reason: 'Test', message: 'by the test' },
      ],
    },
  });
  assert.equal(r.status, 200, r.text);
}

async function until(
  name: string,
  what: string,
  done: (c: CertificateSigningRequest) => boolean
): Promise<CertificateSigningRequest> {
  let last: CertificateSigningRequest | undefined;
  await waitFor(
    `${name}: ${what}`,
    async () => {
      last = await get(name);
      return done(last);
    },
    { timeoutMs: 30_000, intervalMs: 100 }
  ).catch((err: unknown) => {
    throw new Error(
      `${String(err)}\nlast: ${JSON.stringify(last?.status)}\n${suite.logTail('certificates', 30)}`
    );
  });
  return last!;
}

const issued = (c: CertificateSigningRequest): boolean => !!c.status?.certificate;
const failed = (c: CertificateSigningRequest): boolean =>
  (c.status?.conditions ?? []).some((x) => x.type === 'Failed');
const certOf = (c: CertificateSigningRequest): X509Certificate =>
  new X509Certificate(Buffer.from(c.status!.certificate!, 'base64'));

test('orch.io/apiserver-client (openssl req): approved, signed by the cluster CA; lifetime expirationSeconds 600', async () => {
  const { pem } = opensslRequest({ cn: 'alice', orgs: ['dev'] });
  await create(
    csrObject(
      'client-openssl',
      pem,
      'orch.io/apiserver-client',
      ['digital signature', 'client auth'],
      {
        expirationSeconds: 600,
      }
    )
  );
  await approve('client-openssl');
  const c = await until('client-openssl', 'issued', issued);
  const cert = certOf(c);
  assert.ok(cert.checkIssued(ca), 'issued by the cluster CA');
  assert.equal(cert.ca, false);
  assert.match(cert.subject, /CN=alice/);
  const lifetime = Date.parse(cert.validTo) - Date.parse(cert.validFrom);
  assert.equal(lifetime, (10 + 5) * 60_000, 'ten minutes, backdated five');
});

test('orch.io/apiserver-client (@peculiar/x509): a refused usage row gets Failed, SignerValidationFailure, no certificate', async () => {
  const { pem } = await x509Request({ cn: 'bob' });
  await create(
    csrObject('client-bad-usage', pem, 'orch.io/apiserver-client', ['client auth', 'server auth'])
  );
  await approve('client-bad-usage');
  const c = await until('client-bad-usage', 'failed', failed);
  const f = c.status!.conditions!.find((x) => x.type === 'Failed')!;
  assert.equal(f.reason, 'SignerValidationFailure');
  assert.equal(f.message, 'invalid usage for client certificate: server auth');
  assert.equal(c.status?.certificate ?? '', '');
  assert.match(suite.logTail('certificates', 200), /signer validation failed/);
});

test('orch.io/node-agent-serving: signed with its DNS and IP names; a denied request is never signed', async () => {
  const { pem } = await x509Request({
    cn: 'system:node:n1',
    orgs: ['system:nodes'],
    dns: ['n1.example'],
    ips: ['10.0.0.7'],
  });
  const usages = ['key encipherment', 'digital signature', 'server auth'];
  await create(csrObject('serving-ok', pem, 'orch.io/node-agent-serving', usages));
  await create(csrObject('serving-denied', pem, 'orch.io/node-agent-serving', usages));
  await approve('serving-ok');
  await approve('serving-denied', 'Denied');
  const cert = certOf(await until('serving-ok', 'issued', issued));
  assert.equal(cert.subjectAltName, 'DNS:n1.example, IP Address:10.0.0.7');
  assert.ok(cert.checkIssued(ca));
  const denied = await get('serving-denied');
  assert.equal(denied.status?.certificate ?? '', '', 'denied: not signed');
});

test('approver: a node renewing its own client certificate is auto-approved (selfnodeclient) and signed', async () => {
  const node = await userKubeconfig(suite.pki, suite.gateways[0]!, 'system:node:n2', [
    'system:nodes',
  ]);
  const client = new RestClient(loadKubeconfig(node.kubeconfig));
  try {
    const { pem } = opensslRequest({ cn: 'system:node:n2', orgs: ['system:nodes'] });
    await client.request(
      'POST',
      csrPath,
      csrObject('node-self', pem, 'orch.io/apiserver-client-node-agent', [
        'key encipherment',
        'digital signature',
        'client auth',
      ])
    );
  } finally {
    client.close();
  }
  const c = await until('node-self', 'issued', issued);
  const approved = c.status!.conditions!.find((x) => x.type === 'Approved')!;
  assert.equal(approved.reason, 'AutoApproved');
  assert.equal(
    approved.message,
    'Auto approving self kubelet client certificate after SubjectAccessReview.'
  );
  assert.match(certOf(c).subject, /CN=system:node:n2/);
});

test('approver: a requester without the nodeclient permission is left pending; a non-node request is not its to approve', async () => {
  const eve = await userKubeconfig(suite.pki, suite.gateways[0]!, 'eve', ['csr-creators']);
  await grantClusterRole(suite, 'system:node-bootstrapper', 'csr-creators', {
    verb: 'create',
    group: 'certificates.orch.io',
    resource: 'certificatesigningrequests',
  });
  const client = new RestClient(loadKubeconfig(eve.kubeconfig));
  try {
    const { pem } = await x509Request({ cn: 'system:node:n3', orgs: ['system:nodes'] });
    await client.request(
      'POST',
      csrPath,
      csrObject('node-by-eve', pem, 'orch.io/apiserver-client-node-agent', [
        'key encipherment',
        'digital signature',
        'client auth',
      ])
    );
    const other = await x509Request({ cn: 'system:node:n3', orgs: ['system:nodes'], dns: ['n3'] });
    await client.request(
      'POST',
      csrPath,
      csrObject('node-with-san', other.pem, 'orch.io/apiserver-client-node-agent', [
        'key encipherment',
        'digital signature',
        'client auth',
      ])
    );
  } finally {
    client.close();
  }
  await waitFor(
    'the approver saw node-by-eve',
    async () =>
      /recognized csr \\"node-by-eve\\" as \[nodeclient\] but subject access review was not approved/.test(
        suite.logTail('certificates', 400)
      ),
    { timeoutMs: 30_000 }
  ).catch((err: unknown) => {
    throw new Error(`${String(err)}\n${suite.logTail('certificates', 60)}`);
  });
  assert.deepEqual((await get('node-by-eve')).status?.conditions ?? [], []);
  assert.deepEqual(
    (await get('node-with-san')).status?.conditions ?? [],
    [],
    'not a node client request'
  );
});

test('cleaner on a fast clock: approved, denied and failed requests go after an hour; pending ones stay until 24 hours', async () => {
  const { pem } = await x509Request({ cn: 'carol' });
  await create(csrObject('clean-pending', pem, 'orch.io/apiserver-client', ['client auth']));
  let offsetMs = 2 * 60 * 60 * 1000; // two hours ahead
  const client = new RestClient(loadKubeconfig(suite.kubeconfigs[0]!));
  const cleaner = new CsrCleaner({
    client,
    log,
    now: () => new Date(Date.now() + offsetMs),
    pollIntervalMs: 3_600_000,
  });
  // its informer only: the polls are the test's (run() would poll at once by itself)
  await cleaner.informer.start();
  try {
    await cleaner.informer.waitForSync();
    await waitFor(
      'the cleaner sees clean-pending',
      async () => !!cleaner.informer.get('clean-pending'),
      { timeoutMs: 30_000 }
    );
    const first = await cleaner.pollOnce();
    for (const n of ['client-openssl', 'client-bad-usage', 'serving-denied', 'serving-ok'])
      assert.ok(
        first.includes(n),
        `${n} removed (${first.join(', ')}) ${JSON.stringify(cleaner.informer.list().map((o) => [o['metadata'], o['status']]))}`
      );
    assert.ok(!first.includes('clean-pending'), 'pending kept at 2 h');
    assert.ok(!first.includes('node-by-eve'), 'pending kept at 2 h');
    offsetMs = 25 * 60 * 60 * 1000;
    await waitFor('deletions seen', async () => !cleaner.informer.get('client-openssl'), {
      timeoutMs: 30_000,
    });
    const second = await cleaner.pollOnce();
    assert.ok(second.includes('clean-pending'), 'pending removed after 24 h');
    assert.equal((await admin('GET', `${csrPath}/clean-pending`)).status, 404);
  } finally {
    cleaner.informer.stop();
    client.close();
  }
});

/** An HTTPS request without a client certificate (anonymous, or a bearer token). */
function bare(
  path: string,
  token?: string,
  method = 'GET',
  body?: unknown
): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const req = httpsRequest(
      new URL(path, suite.gateways[0]),
      {
        method,
        ca: readFileSync(suite.pki.caFile),
        headers: {
          Accept: 'application/json',
          ...(token ? { Authorization: `Bearer ${token}` } : {}),
          ...(payload ? { 'Content-Type': 'application/json' } : {}),
        },
      },
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
    req.end(payload);
  });
}

function tokenSecret(id: string, secret: string, extra: Record<string, string> = {}) {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: `bootstrap-token-${id}`, namespace: 'orch-system' },
    type: 'bootstrap.orch.io/token',
    stringData: {
      'token-id': id,
      'token-secret': secret,
      'usage-bootstrap-authentication': 'true',
      'usage-bootstrap-signing': 'true',
      ...extra,
    },
  };
}

test('bootstrap signer: cluster-info read anonymously, its JWS verified with jose (HS256 only, the full token); Bootstrap token "valid | expiration time reached | expired ... ignored for signing": its signature goes while its secret is still there; the token cleaner deletes it', async () => {
  const token = 'abcdef.0123456789abcdef';
  const r = await admin(
    'POST',
    '/api/v1/namespaces/orch-system/secrets',
    tokenSecret('abcdef', '0123456789abcdef')
  );
  assert.equal(r.status, 201, r.text);
  const expiring = new Date(Date.now() + 3000).toISOString().replace(/\.\d{3}Z$/, 'Z');
  // A finalizer keeps the expired secret after the token cleaner's delete, so the signer sees
  // an expired token that still exists: its signature must go for the expiry alone.
  const keep = 'example.com/keep';
  const expiringSecret = tokenSecret('zzzzzz', 'ffffffffffffffff', { expiration: expiring });
  const r2 = await admin('POST', '/api/v1/namespaces/orch-system/secrets', {
    ...expiringSecret,
    metadata: { ...expiringSecret.metadata, finalizers: [keep] },
  });
  assert.equal(r2.status, 201, r2.text);
  let data: Record<string, string> = {};
  await waitFor(
    'cluster-info signed for both tokens',
    async () => {
      const cm = await bare('/api/v1/namespaces/orch-public/configmaps/cluster-info');
      if (cm.status !== 200) return false;
      data = cm.body.data;
      return !!data['jws-kubeconfig-abcdef'] && !!data['jws-kubeconfig-zzzzzz'];
    },
    { timeoutMs: 30_000 }
  );
  const kubeconfig = data['kubeconfig']!;
  const [h, , s] = data['jws-kubeconfig-abcdef']!.split('.');
  const { payload, protectedHeader } = await compactVerify(
    `${h}.${Buffer.from(kubeconfig).toString('base64url').replace(/=+$/, '')}.${s}`,
    new TextEncoder().encode(token),
    { algorithms: ['HS256'] }
  );
  assert.equal(protectedHeader.kid, 'abcdef');
  const kc = parseYaml(new TextDecoder().decode(payload)) as {
    clusters: { cluster: Record<string, string> }[];
  };
  assert.equal(kc.clusters[0]!.cluster['server'], suite.gateways[0]);
  assert.equal(
    Buffer.from(kc.clusters[0]!.cluster['certificate-authority-data']!, 'base64').toString(),
    readFileSync(suite.pki.caFile, 'utf8')
  );
  // anonymous may read cluster-info, nothing else there
  assert.equal((await bare('/api/v1/namespaces/orch-public/configmaps')).status, 403);
  // the expired token: its signature gone, its secret still there (deleted by the token
  // cleaner, kept by the finalizer)
  const expiredPath = '/api/v1/namespaces/orch-system/secrets/bootstrap-token-zzzzzz';
  await waitFor(
    'its signature removed',
    async () => {
      const cm = await bare('/api/v1/namespaces/orch-public/configmaps/cluster-info');
      return (
        cm.status === 200 &&
        !cm.body.data['jws-kubeconfig-zzzzzz'] &&
        !!cm.body.data['jws-kubeconfig-abcdef']
      );
    },
    { timeoutMs: 30_000 }
  );
  await waitFor(
    'the token cleaner deleted it (the finalizer keeps it)',
    async () => {
      const got = await admin('GET', expiredPath);
      assert.equal(got.status, 200, 'the expired secret still exists');
      return !!(got.body as { metadata: { deletionTimestamp?: string } }).metadata
        .deletionTimestamp;
    },
    { timeoutMs: 30_000 }
  );
  const cm = await bare('/api/v1/namespaces/orch-public/configmaps/cluster-info');
  assert.equal(cm.body.data['jws-kubeconfig-zzzzzz'], undefined, 'and it is not signed again');
  const lift = await suite.request(
    0,
    'PATCH',
    expiredPath,
    { metadata: { finalizers: null } },
    { 'Content-Type': 'application/merge-patch+json' }
  );
  assert.equal(lift.status, 200, lift.text);
  await waitFor(
    'expired token gone',
    async () => (await admin('GET', expiredPath)).status === 404,
    {
      timeoutMs: 30_000,
    }
  );
});

let customSigner: ChildProcess | undefined;
after(() => {
  customSigner?.kill('SIGTERM');
});

test('a custom signer in another process takes example.com/custom; the service leaves that name alone', async () => {
  const who = await userKubeconfig(suite.pki, suite.gateways[0]!, 'example-signer', [
    'example-signers',
  ]);
  const role = {
    apiVersion: 'rbac.authorization.orch.io/v1',
    kind: 'ClusterRole',
    metadata: { name: 'example-custom-signer' },
    rules: [
      {
        apiGroups: ['certificates.orch.io'],
        resources: ['certificatesigningrequests'],
        verbs: ['get', 'list', 'watch'],
      },
      {
        apiGroups: ['certificates.orch.io'],
        resources: ['certificatesigningrequests/status'],
        verbs: ['update'],
      },
      {
        apiGroups: ['certificates.orch.io'],
        resources: ['signers'],
        verbs: ['sign'],
        resourceNames: ['example.com/custom'],
      },
      {
        apiGroups: ['authorization.orch.io'],
        resources: ['selfsubjectaccessreviews'],
        verbs: ['create'],
      },
    ],
  };
  assert.equal(
    (await admin('POST', '/apis/rbac.authorization.orch.io/v1/clusterroles', role)).status,
    201
  );
  await grantClusterRole(suite, 'example-custom-signer', 'example-signers', {
    verb: 'list',
    group: 'certificates.orch.io',
    resource: 'certificatesigningrequests',
  });
  customSigner = fork(
    fileURLToPath(new URL('./testing/custom-signer.js', import.meta.url)),
    [who.kubeconfig],
    {
      stdio: 'inherit',
    }
  );
  const { pem } = await x509Request({ cn: 'custom-user' });
  await create(csrObject('custom-1', pem, 'example.com/custom', ['client auth']));
  await approve('custom-1');
  const c = await until('custom-1', 'issued by the custom signer', issued);
  const cert = certOf(c);
  assert.match(
    cert.issuer,
    /CN=example-custom-ca/,
    'issued by the custom signer, not the cluster CA'
  );
  assert.ok(!cert.checkIssued(ca));
});
