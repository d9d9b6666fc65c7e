// The certificates service over real gRPC (mutual TLS), built in-process from its options as
// main.ts builds it, asking the shared suite's authorizer: gRPC health, the request check, the three
// plugins' decisions by the authorizer's answer, an unknown plugin refused, a client without a
// certificate of the cluster CA refused, the metrics on the operational server.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { get } from 'node:https';
import { after, before, describe, it } from 'node:test';
import { pluginsPlacedIn } from '@orch/apimachinery/admission';
import { CertificatesClient } from '@orch/apimachinery/grpc';
import type { AdmissionCallRequest, AdmitCall } from '@orch/apimachinery/grpc';
import type { ApiObject } from '@orch/apimachinery/meta';
import { StatusError } from '@orch/apimachinery/errors';
import { HealthClient, clientCredentials } from '@orch/component-base/grpc-server';
import { createLogger } from '@orch/component-base/logs';
import { startInBackground } from '@orch/component-base/run';
import type { Started } from '@orch/component-base/run';
import { freePort, sharedSuite, throwawayPki } from '@orch/testing';
import type { Suite, ThrowawayPki } from '@orch/testing';
import { newCertificatesConfig } from './config.js';
import { certificatesOptions } from './options.js';
import { CertificatesServer } from './server.js';
import { flipSignatureByte, opensslCsr } from './testing/csr-fixtures.js';

let suite: Suite;
let server: CertificatesServer;
let started: Started;
let client: CertificatesClient;
let address: string;
let metricsPort: number;
let stranger: ThrowawayPki;

const signer = 'example.com/my-signer';
const admin = { name: 'orch-admin', uid: '', groups: ['system:masters'], extra: {} };
const nobody = { name: 'nobody', uid: '', groups: ['system:authenticated'], extra: {} };

const csr = (request: string, status?: Record<string, unknown>): ApiObject => ({
  apiVersion: 'certificates.orch.io/v1',
  kind: 'CertificateSigningRequest',
  metadata: { name: 'c1' },
  spec: { request, signerName: signer, usages: ['client auth'] },
  ...(status ? { status } : {}),
});

const call = (plugins: string[], over: Partial<AdmissionCallRequest>): AdmitCall => ({
  phase: 'validating',
  plugins,
  request: {
    operation: 'CREATE',
    kind: { group: 'certificates.orch.io', version: 'v1', kind: 'CertificateSigningRequest' },
    resource: {
      group: 'certificates.orch.io',
      version: 'v1',
      resource: 'certificatesigningrequests',
    },
    subResource: '',
    namespace: '',
    name: 'c1',
    userInfo: admin,
    object: csr(opensslCsr({ commonName: 'x' }).request),
    oldObject: undefined,
    options: undefined,
    dryRun: false,
    ...over,
  },
});
const all = ['CertificateApproval', 'CertificateSigning', 'CertificateSubjectRestriction'];

before(async () => {
  suite = await sharedSuite();
  stranger = await throwawayPki();
  const c = suite.pki.file('certificates');
  metricsPort = await freePort();
  const options = certificatesOptions([
    '--secure-port=0',
    `--tls-cert-file=${c.certFile}`,
    `--tls-private-key-file=${c.keyFile}`,
    `--client-ca-file=${suite.pki.caFile}`,
    `--authorizer-servers=127.0.0.1:${suite.authorizerPort}`,
    `--operational-secure-port=${metricsPort}`,
  ]);
  server = new CertificatesServer(newCertificatesConfig(options, createLogger('test', 'error')));
  started = await startInBackground(server);
  address = `127.0.0.1:${await server.serving}`;
  const g = suite.pki.file('gateway');
  client = new CertificatesClient({
    address,
    credentials: clientCredentials({ caFile: suite.pki.caFile, ...g }),
  });
});

after(async () => {
  client?.close();
  await started?.stop();
  await stranger?.cleanup();
  await suite?.stop();
});

describe('certificates service', () => {
  it('gRPC health: SERVING', async () => {
    const g = suite.pki.file('gateway');
    const health = new HealthClient(address, clientCredentials({ caFile: suite.pki.caFile, ...g }));
    try {
      assert.equal(await health.check(''), 'SERVING');
    } finally {
      health.close();
    }
  });

  it('mutual TLS: a client certificate of another CA is refused', async () => {
    const s = stranger.file('gateway');
    const other = new CertificatesClient({
      address,
      credentials: clientCredentials({ caFile: suite.pki.caFile, ...s }),
      timeoutMs: 3000,
    });
    try {
      await assert.rejects(other.admit(call(all, {})), (err: unknown) => {
        assert.ok(err instanceof StatusError);
        return true;
      });
    } finally {
      other.close();
    }
  });

  it('a sound create with every plugin: allowed', async () => {
    const r = await client.admit(call(all, {}));
    assert.equal(r.allowed, true, JSON.stringify(r.status));
  });

  it('the request check runs with no plugin named: 422 naming spec.request', async () => {
    const bad = flipSignatureByte(opensslCsr({ commonName: 'x' })).request;
    const r = await client.admit(call([], { object: csr(bad) }));
    assert.equal(r.allowed, false);
    assert.equal(r.status?.code, 422);
    assert.deepEqual(
      r.status?.details?.causes?.map((c) => c.field),
      ['spec.request']
    );
  });

  it('ListPlugins: the plugins the list places in the certificates service, in order', async () => {
    assert.deepEqual(await client.listPlugins(), pluginsPlacedIn('certificates'));
  });

  it('an unknown plugin name: 400 listing the known ones', async () => {
    await assert.rejects(client.admit(call(['CertificateMagic'], {})), (err: unknown) => {
      assert.ok(err instanceof StatusError);
      assert.equal(err.code, 400);
      assert.match(err.message, /CertificateMagic.*known: CertificateApproval/);
      return true;
    });
  });

  const approval = (user: typeof admin): AdmitCall => {
    const old = csr(opensslCsr({ commonName: 'x' }).request);
    return call(all, {
      operation: 'UPDATE',
      subResource: 'approval',
      userInfo: user,
      oldObject: old,
      object: { ...old, status: { conditions: [{ type: 'Approved', status: 'True' }] } },
    });
  };

  it('CertificateApproval: the authorizer allows system:masters', async () => {
    const r = await client.admit(approval(admin));
    assert.equal(r.allowed, true, JSON.stringify(r.status));
  });

  it('CertificateApproval: the authorizer denies a user without approve: 403', async () => {
    const r = await client.admit(approval(nobody));
    assert.equal(r.allowed, false);
    assert.equal(r.status?.code, 403);
    assert.match(r.status?.message ?? '', /not permitted to approve requests with signerName/);
  });

  it('CertificateSigning: a status write keeping the certificate asks nothing', async () => {
    const old = csr(opensslCsr({ commonName: 'x' }).request, { certificate: 'QUJD' });
    const r = await client.admit(
      call(all, {
        operation: 'UPDATE',
        subResource: 'status',
        userInfo: nobody,
        oldObject: old,
        object: old,
      })
    );
    assert.equal(r.allowed, true, JSON.stringify(r.status));
  });

  it('CertificateSigning: a user without sign setting the certificate: 403', async () => {
    const old = csr(opensslCsr({ commonName: 'x' }).request);
    const r = await client.admit(
      call(all, {
        operation: 'UPDATE',
        subResource: 'status',
        userInfo: nobody,
        oldObject: old,
        object: { ...old, status: { certificate: 'QUJD' } },
      })
    );
    assert.equal(r.status?.code, 403);
    assert.match(r.status?.message ?? '', /not permitted to sign requests/);
  });

  it('a plugin left out is not run (CertificateSubjectRestriction off)', async () => {
    const masters = opensslCsr({ commonName: 'root', organizations: ['system:masters'] });
    const obj = csr(masters.request);
    (obj['spec'] as Record<string, unknown>)['signerName'] = 'orch.io/apiserver-client';
    const on = await client.admit(call(all, { object: obj }));
    assert.equal(on.status?.code, 403);
    const off = await client.admit(
      call(['CertificateApproval', 'CertificateSigning'], { object: obj })
    );
    assert.equal(off.allowed, true);
  });

  it('metrics on the operational server: the calls by rpc and code, the checks by name', async () => {
    const admin = suite.pki.file('admin');
    const tls = {
      ca: await readFile(suite.pki.caFile),
      cert: await readFile(admin.certFile),
      key: await readFile(admin.keyFile),
    };
    const text = await new Promise<string>((resolve, reject) => {
      get(`https://127.0.0.1:${metricsPort}/metrics`, tls, (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve(body));
      }).on('error', reject);
    });
    assert.match(
      text,
      /orch_certificates_request_duration_seconds_count\{component="certificates",rpc="Admit",code="OK"\} \d+/
    );
    assert.match(
      text,
      /orch_certificates_request_duration_seconds_count\{component="certificates",rpc="Admit",code="3"\} 1/
    );
    assert.match(
      text,
      /orch_certificates_admission_duration_seconds_count\{component="certificates",name="CertificateApproval",rejected="true"\} \d+/
    );
  });
});
