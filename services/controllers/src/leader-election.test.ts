// Leader election with real controllers processes against a real suite: the suite's
// controllers lead on the Lease, a second replica waits without running its controllers; when
// the leader is killed (SIGKILL, no release), the standby takes the lease once it has seen no
// renewal for the lease duration, runs the controllers, and they act (a new namespace gets its
// default ServiceAccount). A leader stopped cleanly (SIGTERM) releases the lease: a third
// replica takes it at its next retry instead of after the lease duration.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { serviceBundle, startSuite, waitFor } from '@orch/testing';
import type { Suite } from '@orch/testing';

let suite: Suite;
interface Replica {
  child: ChildProcess;
  log: string[];
}
const replicas: Replica[] = [];
/**
 * Shorter than upstream's 15 s / 10 s / 2 s, so the takeover after a kill waits 6 s, not 15 s;
 * the same flags for every replica, as one deployment gives them.
 */
const leaderElection = [
  '--leader-elect-lease-duration=6s',
  '--leader-elect-renew-deadline=4s',
  '--leader-elect-retry-period=1s',
];
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
const logged = (r: Replica, msg: string): boolean =>
  r.log.some((l) => l.includes(`"msg":"${msg}"`));
/** The identity a replica campaigns with, from its log. */
const identityOf = (r: Replica): string | undefined =>
  /"identity":"([^"]+)"/.exec(
    r.log.find((l) => l.includes('attempting to acquire leader lease')) ?? ''
  )?.[1];

/** A controllers process of its own, on the suite's controllers kubeconfig. */
function spawnReplica(): Replica {
  const kubeconfig = join(dirname(suite.logDir), 'controllers.kubeconfig');
  const child = spawn(
    process.execPath,
    [serviceBundle('controllers'), `--kubeconfig=${kubeconfig}`, ...leaderElection],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    }
  );
  const r: Replica = { child, log: [] };
  for (const s of [child.stdout!, child.stderr!]) {
    s.setEncoding('utf8');
    s.on('data', (chunk: string) => r.log.push(...chunk.split('\n').filter(Boolean)));
  }
  replicas.push(r);
  return r;
}

/** SIGTERM, resolving with the exit code. */
async function stopReplica(r: Replica): Promise<number | null> {
  if (r.child.exitCode !== null) return r.child.exitCode;
  const exited = new Promise<number | null>((res) => r.child.once('exit', (code) => res(code)));
  r.child.kill('SIGTERM');
  return exited;
}

let standby: Replica;

before(async () => {
  suite = await startSuite({ controllers: true, controllersArgs: leaderElection });
  standby = spawnReplica();
});

after(async () => {
  for (const r of replicas) await stopReplica(r);
  await suite?.stop();
});

test('two replicas: the standby waits, takes over when the leader is killed, and its controllers act', async () => {
  const wait = { timeoutMs: 60_000 };
  await waitFor('the suite controllers hold the lease', async () => !!(await holder()), wait);
  const first = (await holder())!;
  await waitFor(
    'the standby campaigns',
    async () => logged(standby, 'attempting to acquire leader lease'),
    wait
  );
  const standbyId = identityOf(standby);
  assert.ok(standbyId && standbyId !== first.holderIdentity, 'two identities');
  // The leader renews while the standby keeps trying; the standby runs no controllers.
  await waitFor(
    'the leader renewed the lease after the standby started',
    async () => {
      const r = await suite.request(0, 'GET', leasePath);
      const spec = (r.body as { spec: { renewTime: string; holderIdentity: string } }).spec;
      return (
        spec.holderIdentity === first.holderIdentity &&
        logged(standby, 'attempting to acquire leader lease')
      );
    },
    wait
  );
  assert.equal(logged(standby, 'controllers running'), false, 'the standby runs no controllers');

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
    async () => logged(standby, 'controllers running'),
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

test('a leader stopped cleanly releases the lease: the next replica takes it at its next retry', async () => {
  // The standby of the test above leads now; a third replica campaigns beside it.
  const wait = { timeoutMs: 60_000 };
  const leaderId = identityOf(standby);
  assert.equal((await holder())?.holderIdentity, leaderId, 'the standby leads');
  const third = spawnReplica();
  await waitFor(
    'the third replica campaigns',
    async () => logged(third, 'attempting to acquire leader lease'),
    wait
  );
  const thirdId = identityOf(third)!;
  const before = (await holder())!;
  assert.equal(before.holderIdentity, leaderId, 'the leader keeps the lease while it runs');

  assert.equal(await stopReplica(standby), 0, 'a clean exit');
  assert.ok(logged(standby, 'released lease'), standby.log.slice(-10).join('\n'));
  // Read as soon as the old leader has exited: released (holder cleared), or already taken by
  // the third replica; without the release it would still name the old leader for 6 s.
  const released = (await holder())!;
  assert.ok(
    released.holderIdentity === '' || released.holderIdentity === thirdId,
    `holder after the stop: ${released.holderIdentity}`
  );
  // The third replica's retries are every 1 s (with jitter, at most 2.2 s): within 5 s, before
  // the 6 s lease duration would have let it take an unreleased lease.
  await waitFor(
    'the third replica takes the released lease',
    async () => (await holder())?.holderIdentity === thirdId,
    { timeoutMs: 5_000 }
  );
  assert.equal((await holder())!.leaseTransitions, (before.leaseTransitions ?? 0) + 1);
  await waitFor(
    'the third replica runs the controllers',
    async () => logged(third, 'controllers running'),
    wait
  );
});
