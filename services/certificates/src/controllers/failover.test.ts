// Killing the certificates service mid-flow loses no request: a pending request outlives a
// SIGKILL of the leader; a second replica (the same identity, in this test process) takes the
// Lease once the dead leader's expires and signs it when it is approved; when that replica stops
// it releases the Lease and the restarted service takes over and signs the next one.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { RestClient, loadKubeconfig } from '@orch/apimachinery/client';
import { componentUserName, componentsGroup } from '@orch/component-base/pki';
import { createLogger } from '@orch/component-base/logs';
import { startSuite, userKubeconfig, waitFor } from '@orch/testing';
import type { Suite } from '@orch/testing';
import { CertificateControllers } from './certificate-controllers.js';
import { completeCertificateControllersOptions } from './controller-options.js';
import { csrPath } from './csr.js';
import type { CertificateSigningRequest } from './csr.js';
import { csrObject, x509Request } from './test-requests.js';

let suite: Suite;
const lease = '/apis/coordination.orch.io/v1/namespaces/orch-system/leases/orch-certificates';
const leaderArgs = [
  '--leader-elect-lease-duration=4s',
  '--leader-elect-renew-deadline=3s',
  '--leader-elect-retry-period=500ms',
];

before(async () => {
  suite = await startSuite({ certificates: true, certificatesArgs: leaderArgs });
});

after(async () => {
  await suite?.stop();
});

async function csrWritesAnswered(): Promise<void> {
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
}

async function holder(): Promise<string> {
  const r = await suite.request(0, 'GET', lease);
  return r.status === 200
    ? ((r.body as { spec?: { holderIdentity?: string } }).spec?.holderIdentity ?? '')
    : '';
}

async function approve(name: string): Promise<void> {
  const c = (await suite.request(0, 'GET', `${csrPath}/${name}`)).body as CertificateSigningRequest;
  const r = await suite.request(0, 'PUT', `${csrPath}/${name}/approval`, {
    ...c,
    status: { conditions: [{ type: 'Approved', status: 'True', reason: 'Test', message: 'ok' }] },
  });
  assert.equal(r.status, 200, r.text);
}

async function issued(name: string): Promise<void> {
  await waitFor(
    `${name} issued`,
    async () =>
      !!((await suite.request(0, 'GET', `${csrPath}/${name}`)).body as CertificateSigningRequest)
        .status?.certificate,
    { timeoutMs: 60_000, intervalMs: 200 }
  );
}

test('a SIGKILLed leader loses no request: a second replica takes the Lease and signs; the restarted service takes over when that one stops', async () => {
  await csrWritesAnswered();
  await waitFor('the service leads', async () => (await holder()) !== '', { timeoutMs: 30_000 });
  const first = await holder();

  // a second replica with the service's identity, campaigning for the same Lease
  const creds = await userKubeconfig(
    suite.pki,
    suite.gateways[0]!,
    componentUserName('certificates'),
    [componentsGroup]
  );
  const problems: string[] = [];
  const options = completeCertificateControllersOptions(
    {
      controllers: '*',
      'cluster-signing-cert-file': suite.pki.caFile,
      'cluster-signing-key-file': suite.pki.file('ca').keyFile,
      'leader-elect-lease-duration': '4s',
      'leader-elect-renew-deadline': '3s',
      'leader-elect-retry-period': '500ms',
    },
    problems
  );
  assert.deepEqual(problems, []);
  const config = loadKubeconfig(creds.kubeconfig);
  const client = new RestClient(config);
  const replica = new CertificateControllers({
    options,
    client,
    log: createLogger('replica-2', 'warn'),
    server: config.server,
    serverCa: config.ca,
    identity: 'replica-2',
  });
  const stop = new AbortController();
  const running = replica.run(stop.signal);
  try {
    // a pending request, then the leader dies without a word
    const { pem } = await x509Request({ cn: 'mid-flow' });
    const created = await suite.request(
      0,
      'POST',
      csrPath,
      csrObject('mid-flow', pem, 'orch.io/apiserver-client', ['client auth'])
    );
    assert.equal(created.status, 201, created.text);
    assert.equal(await holder(), first, 'the service still leads');
    await suite.kill('certificates');
    await waitFor('replica-2 takes the Lease', async () => (await holder()) === 'replica-2', {
      timeoutMs: 30_000,
    });
    // the service comes back (for the gateway's checks) as a follower
    await suite.restart('certificates');
    await csrWritesAnswered();
    await approve('mid-flow');
    await issued('mid-flow');
    assert.equal(await holder(), 'replica-2', 'signed while replica-2 led');
  } finally {
    stop.abort();
    await running;
    client.close();
  }
  // replica-2 released the Lease on stopping (read as soon as run() has returned: holder cleared,
  // or already the service's): the restarted service takes over at once
  assert.notEqual(await holder(), 'replica-2', 'replica-2 released the Lease');
  await waitFor(
    'the restarted service leads',
    async () => {
      const h = await holder();
      return h !== '' && h !== 'replica-2' && h !== first;
    },
    { timeoutMs: 30_000 }
  );
  const { pem } = await x509Request({ cn: 'after' });
  const created = await suite.request(
    0,
    'POST',
    csrPath,
    csrObject('after', pem, 'orch.io/apiserver-client', ['client auth'])
  );
  assert.equal(created.status, 201, created.text);
  await approve('after');
  await issued('after');
});
