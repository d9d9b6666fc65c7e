// Leader election with two real controllers processes against a real suite: the suite's
// controllers lead on the Lease, a second replica waits without running its controllers; when
// the leader is killed (SIGKILL, no release), the standby takes the lease once it has seen no
// renewal for the lease duration, runs the controllers, and they act (a new namespace gets its
// default ServiceAccount).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSuite, waitFor } from '@orch/testing';
import type { Suite } from '@orch/testing';

let suite: Suite;
let standby: ChildProcess | undefined;
const standbyLog: string[] = [];
const leasePath =
  '/apis/coordination.orch.io/v1/namespaces/orch-system/leases/orch-controller-manager';

interface LeaseSpec {
  holderIdentity: string;
  leaseTransitions?: number;
}
const holder = async (): Promise<LeaseSpec | undefined> => {
  const r = await suite.request(0, 'GET', leasePath);
  return r.status === 200 ? (r.body as { spec: LeaseSpec }).spec : undefined;
};
const logged = (msg: string): boolean => standbyLog.some((l) => l.includes(`"msg":"${msg}"`));

before(async () => {
  suite = await startSuite({ controllers: true });
  const kubeconfig = join(dirname(suite.logDir), 'controllers.kubeconfig');
  const main = join(dirname(fileURLToPath(import.meta.url)), 'main.js');
  standby = spawn(process.execPath, [main, `--kubeconfig=${kubeconfig}`], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  for (const s of [standby.stdout!, standby.stderr!]) {
    s.setEncoding('utf8');
    s.on('data', (chunk: string) => standbyLog.push(...chunk.split('\n').filter(Boolean)));
  }
});

after(async () => {
  if (standby && standby.exitCode === null) {
    const exited = new Promise((r) => standby!.once('exit', r));
    standby.kill('SIGTERM');
    await exited;
  }
  await suite?.stop();
});

test('two replicas: the standby waits, takes over when the leader is killed, and its controllers act', async () => {
  const wait = { timeoutMs: 60_000 };
  await waitFor('the suite controllers hold the lease', async () => !!(await holder()), wait);
  const first = (await holder())!;
  await waitFor(
    'the standby campaigns',
    async () => logged('attempting to acquire leader lease'),
    wait
  );
  const standbyId = /"identity":"([^"]+)"/.exec(
    standbyLog.find((l) => l.includes('attempting to acquire leader lease')) ?? ''
  )?.[1];
  assert.ok(standbyId && standbyId !== first.holderIdentity, 'two identities');
  // The leader renews while the standby keeps trying; the standby runs no controllers.
  await waitFor(
    'the leader renewed the lease after the standby started',
    async () => {
      const r = await suite.request(0, 'GET', leasePath);
      const spec = (r.body as { spec: { renewTime: string; holderIdentity: string } }).spec;
      return (
        spec.holderIdentity === first.holderIdentity && logged('attempting to acquire leader lease')
      );
    },
    wait
  );
  assert.equal(logged('controllers running'), false, 'the standby runs no controllers');

  await suite.kill('controllers');
  await waitFor(
    'the standby takes the lease',
    async () => (await holder())?.holderIdentity === standbyId,
    wait
  );
  const taken = (await holder())!;
  assert.equal(taken.leaseTransitions, (first.leaseTransitions ?? 0) + 1);
  await waitFor(
    'the standby runs the controllers',
    async () => logged('controllers running'),
    wait
  );

  const ns = 'after-failover';
  const r = await suite.request(0, 'POST', '/api/v1/namespaces', { metadata: { name: ns } });
  assert.equal(r.status, 201, r.text);
  await waitFor(
    'the new leader creates the default ServiceAccount',
    async () =>
      (await suite.request(0, 'GET', `/api/v1/namespaces/${ns}/serviceaccounts/default`)).status ===
      200,
    wait
  );
});
