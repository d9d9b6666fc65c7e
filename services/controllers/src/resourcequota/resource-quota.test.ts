// Resource quota end to end through a real suite with two gateways, the admission service and
// the controllers (etcd, NATS, TLS, gRPC): the controller fills status.hard; concurrent pod
// creates through both gateways never pass `hard` (exactly `hard` succeed, the others get
// upstream's 403); deletes release usage (the controller's status.used converges and a create
// fits again); LimitRange defaults land on pods and are what the compute quota charges; a pod
// without the resources a quota tracks, and one over a LimitRange's max, are refused; the
// admission service's ResourceQuotaConfiguration (limitedResources) refuses uncovered secrets.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSuite, waitFor } from '@orch/testing';
import type { Suite, SuiteResponse } from '@orch/testing';

let suite: Suite;

const messageOf = (r: SuiteResponse): string => (r.body as { message?: string }).message ?? '';
const pod = (name: string, resources?: object) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name },
  spec: { containers: [{ name: 'app', image: 'nginx', ...(resources ? { resources } : {}) }] },
});
interface Quota {
  status?: { hard?: Record<string, string>; used?: Record<string, string> };
}

async function createNamespace(name: string): Promise<void> {
  const r = await suite.request(0, 'POST', '/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name },
  });
  assert.equal(r.status, 201, r.text);
  // Every namespace holds the root CA publisher's ConfigMap (upstream's kube-root-ca.crt), which
  // object-count quotas count as upstream's do: wait for it, so that the counts below are stable.
  await waitFor(
    `kube-root-ca.crt in ${name}`,
    async () =>
      (await suite.request(0, 'GET', `/api/v1/namespaces/${name}/configmaps/kube-root-ca.crt`))
        .status === 200,
    { timeoutMs: 30_000, intervalMs: 100 }
  );
}

async function quota(ns: string, name: string): Promise<Quota> {
  const r = await suite.request(0, 'GET', `/api/v1/namespaces/${ns}/resourcequotas/${name}`);
  assert.equal(r.status, 200, r.text);
  return r.body as Quota;
}

/** Waits until the controller's status.used equals `want`. */
async function usedConverges(
  ns: string,
  name: string,
  want: Record<string, string>
): Promise<void> {
  let last: unknown;
  await waitFor(
    `status.used of ${ns}/${name} to be ${JSON.stringify(want)} (last ${JSON.stringify(last)})`,
    async () => {
      last = (await quota(ns, name)).status?.used;
      return JSON.stringify(last) === JSON.stringify(want);
    },
    { timeoutMs: 30_000, intervalMs: 100 }
  ).catch((err: unknown) => {
    throw new Error(
      `${String(err)}; last used ${JSON.stringify(last)}\n${suite.logTail('controllers', 30)}`
    );
  });
}

const dir = mkdtempSync(join(tmpdir(), 'orch-quota-config-'));

before(async () => {
  // Secrets are limited: one can only be created where a quota covers them.
  const config = join(dir, 'admission.json');
  writeFileSync(
    config,
    JSON.stringify({
      apiVersion: 'apiserver.config.orch.io/v1',
      kind: 'AdmissionConfiguration',
      plugins: [
        {
          name: 'ResourceQuota',
          configuration: {
            apiVersion: 'apiserver.config.orch.io/v1',
            kind: 'ResourceQuotaConfiguration',
            limitedResources: [{ resource: 'secrets', matchContains: ['secrets'] }],
          },
        },
      ],
    })
  );
  suite = await startSuite({
    gateways: 2,
    controllers: true,
    admissionArgs: [`--admission-control-config-file=${config}`],
  });
});

after(async () => {
  await suite?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('ResourceQuota on pods across two gateways', () => {
  const ns = 'quota-pods';
  const base = `/api/v1/namespaces/${ns}/pods`;

  before(async () => {
    await createNamespace(ns);
    const r = await suite.request(0, 'POST', `/api/v1/namespaces/${ns}/resourcequotas`, {
      apiVersion: 'v1',
      kind: 'ResourceQuota',
      metadata: { name: 'q' },
      spec: { hard: { pods: '3', 'count/configmaps': '3' } },
    });
    assert.equal(r.status, 201, r.text);
    assert.deepEqual((r.body as Quota).status, {}, 'a create starts with an empty status');
    await usedConverges(ns, 'q', { 'count/configmaps': '1', pods: '0' });
    assert.deepEqual((await quota(ns, 'q')).status?.hard, { 'count/configmaps': '3', pods: '3' });
  });

  it('concurrent creates through both gateways: exactly hard succeed, the rest get upstream’s 403', async () => {
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => suite.request(i % 2, 'POST', base, pod(`p-${i}`)))
    );
    const created = results.filter((r) => r.status === 201);
    const refused = results.filter((r) => r.status !== 201);
    assert.equal(created.length, 3, results.map((r) => `${r.status} ${messageOf(r)}`).join('\n'));
    for (const r of refused) {
      assert.equal(r.status, 403, r.text);
      assert.match(
        messageOf(r),
        /^pods "p-\d+" is forbidden: exceeded quota: q, requested: pods=1, used: pods=3, limited: pods=3$/
      );
    }
    const list = await suite.request(1, 'GET', base);
    assert.equal((list.body as { items: unknown[] }).items.length, 3);
    assert.equal((await quota(ns, 'q')).status?.used?.['pods'], '3');
  });

  it('deletes release usage: the controller recalculates and a create fits again', async () => {
    const list = await suite.request(0, 'GET', base);
    const names = (list.body as { items: { metadata: { name: string } }[] }).items.map(
      (p) => p.metadata.name
    );
    const del = await suite.request(1, 'DELETE', `${base}/${names[0]}`);
    assert.equal(del.status, 200, del.text);
    await usedConverges(ns, 'q', { 'count/configmaps': '1', pods: '2' });
    const again = await suite.request(1, 'POST', base, pod('p-again'));
    assert.equal(again.status, 201, again.text);
    const over = await suite.request(0, 'POST', base, pod('p-over'));
    assert.equal(over.status, 403, over.text);
    assert.equal(
      messageOf(over),
      'pods "p-over" is forbidden: exceeded quota: q, requested: pods=1, used: pods=3, limited: pods=3'
    );
  });

  it('object counts: count/configmaps limits configmaps, a dry run charges nothing', async () => {
    const cm = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } });
    const cms = `/api/v1/namespaces/${ns}/configmaps`;
    const dry = await suite.request(0, 'POST', `${cms}?dryRun=All`, cm('dry'));
    assert.equal(dry.status, 201, dry.text);
    assert.equal((await quota(ns, 'q')).status?.used?.['count/configmaps'], '1');
    for (const n of ['a', 'b']) {
      const r = await suite.request(0, 'POST', cms, cm(n));
      assert.equal(r.status, 201, r.text);
    }
    const r = await suite.request(1, 'POST', cms, cm('c'));
    assert.equal(r.status, 403, r.text);
    assert.equal(
      messageOf(r),
      'configmaps "c" is forbidden: exceeded quota: q, requested: count/configmaps=1, used: count/configmaps=3, limited: count/configmaps=3'
    );
  });

  it('limitedResources: a secret needs a quota covering it', async () => {
    const secret = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' } };
    const secrets = `/api/v1/namespaces/${ns}/secrets`;
    const r = await suite.request(0, 'POST', secrets, secret);
    assert.equal(r.status, 403, r.text);
    assert.equal(
      messageOf(r),
      'secrets "s" is forbidden: insufficient quota to consume: count/secrets,secrets'
    );
    const q = await suite.request(0, 'POST', `/api/v1/namespaces/${ns}/resourcequotas`, {
      apiVersion: 'v1',
      kind: 'ResourceQuota',
      metadata: { name: 'secrets' },
      spec: { hard: { secrets: '5', 'count/secrets': '5' } },
    });
    assert.equal(q.status, 201, q.text);
    await usedConverges(ns, 'secrets', { 'count/secrets': '0', secrets: '0' });
    const again = await suite.request(1, 'POST', secrets, secret);
    assert.equal(again.status, 201, again.text);
  });

  it('the controller corrects a status.used written wrong', async () => {
    const q = (await quota(ns, 'q')) as Record<string, unknown>;
    const wrong = {
      ...q,
      status: { ...(q['status'] as object), used: { pods: '0', 'count/configmaps': '0' } },
    };
    const w = await suite.request(
      0,
      'PUT',
      `/api/v1/namespaces/${ns}/resourcequotas/q/status`,
      wrong
    );
    assert.equal(w.status, 200, w.text);
    // A spec change makes the controller sync it at once (no wait for the periodic resync).
    const p = await suite.request(
      0,
      'PATCH',
      `/api/v1/namespaces/${ns}/resourcequotas/q`,
      { spec: { hard: { pods: '4', 'count/configmaps': '3' } } },
      { 'Content-Type': 'application/merge-patch+json' }
    );
    assert.equal(p.status, 200, p.text);
    await usedConverges(ns, 'q', { 'count/configmaps': '3', pods: '3' });
    assert.equal((await quota(ns, 'q')).status?.hard?.['pods'], '4');
  });
});

describe('creates and deletes at once, through both gateways', () => {
  const ns = 'quota-churn';
  const base = `/api/v1/namespaces/${ns}/pods`;

  before(async () => {
    await createNamespace(ns);
    const r = await suite.request(0, 'POST', `/api/v1/namespaces/${ns}/resourcequotas`, {
      apiVersion: 'v1',
      kind: 'ResourceQuota',
      metadata: { name: 'q' },
      spec: { hard: { pods: '3' } },
    });
    assert.equal(r.status, 201, r.text);
    await usedConverges(ns, 'q', { pods: '0' });
  });

  it('never more pods than hard, and status.used converges to what is left', async () => {
    const names = async (): Promise<string[]> =>
      (
        (await suite.request(0, 'GET', base)).body as { items: { metadata: { name: string } }[] }
      ).items.map((p) => p.metadata.name);
    for (let round = 0; round < 6; round++) {
      const existing = await names();
      const ops = [
        ...existing.slice(0, 1).map((n) => suite.request(round % 2, 'DELETE', `${base}/${n}`)),
        ...Array.from({ length: 4 }, (_, i) =>
          suite.request((round + i) % 2, 'POST', base, pod(`r${round}-${i}`))
        ),
      ];
      for (const r of await Promise.all(ops)) {
        assert.ok([200, 201, 403].includes(r.status), r.text);
        if (r.status === 403) assert.match(messageOf(r), /exceeded quota: q, requested: pods=1/);
      }
      const left = await names();
      assert.ok(left.length <= 3, `round ${round}: ${left.length} pods`);
    }
    await usedConverges(ns, 'q', { pods: String((await names()).length) });
  });
});

describe('LimitRange defaults and a compute quota', () => {
  const ns = 'quota-compute';
  const base = `/api/v1/namespaces/${ns}/pods`;

  before(async () => {
    await createNamespace(ns);
    const lr = await suite.request(0, 'POST', `/api/v1/namespaces/${ns}/limitranges`, {
      apiVersion: 'v1',
      kind: 'LimitRange',
      metadata: { name: 'limits' },
      spec: {
        limits: [
          {
            type: 'Container',
            max: { cpu: '1' },
            default: { cpu: '500m' },
            defaultRequest: { cpu: '200m' },
          },
        ],
      },
    });
    assert.equal(lr.status, 201, lr.text);
    const q = await suite.request(0, 'POST', `/api/v1/namespaces/${ns}/resourcequotas`, {
      apiVersion: 'v1',
      kind: 'ResourceQuota',
      metadata: { name: 'compute' },
      spec: { hard: { 'requests.cpu': '1', 'limits.cpu': '4', 'requests.memory': '1Gi' } },
    });
    assert.equal(q.status, 201, q.text);
    await usedConverges(ns, 'compute', {
      'limits.cpu': '0',
      'requests.cpu': '0',
      'requests.memory': '0',
    });
  });

  it('a pod not declaring a tracked resource is refused naming it', async () => {
    const r = await suite.request(0, 'POST', base, pod('no-memory'));
    assert.equal(r.status, 403, r.text);
    assert.equal(
      messageOf(r),
      'pods "no-memory" is forbidden: failed quota: compute: must specify requests.memory for: app'
    );
  });

  it('defaults are set on the pod and charged; the sixth pod exceeds requests.cpu', async () => {
    const memory = { requests: { memory: '64Mi' } };
    const first = await suite.request(1, 'POST', base, pod('c-0', memory));
    assert.equal(first.status, 201, first.text);
    const got = await suite.request(0, 'GET', `${base}/c-0`);
    const spec = (got.body as { spec: { containers: { resources: unknown }[] } }).spec;
    assert.deepEqual(spec.containers[0]!.resources, {
      limits: { cpu: '500m' },
      requests: { cpu: '200m', memory: '64Mi' },
    });
    assert.equal(
      (got.body as { metadata: { annotations: Record<string, string> } }).metadata.annotations[
        'kubernetes.io/limit-ranger'
      ],
      'LimitRanger plugin set: cpu request for container app; cpu limit for container app'
    );
    for (let i = 1; i < 5; i++) {
      const r = await suite.request(i % 2, 'POST', base, pod(`c-${i}`, memory));
      assert.equal(r.status, 201, r.text);
    }
    const sixth = await suite.request(0, 'POST', base, pod('c-5', memory));
    assert.equal(sixth.status, 403, sixth.text);
    assert.equal(
      messageOf(sixth),
      'pods "c-5" is forbidden: exceeded quota: compute, requested: requests.cpu=200m, used: requests.cpu=1, limited: requests.cpu=1'
    );
    await usedConverges(ns, 'compute', {
      'limits.cpu': '2500m',
      'requests.cpu': '1',
      'requests.memory': '320Mi',
    });
  });

  it('a container over the LimitRange max is refused with upstream’s message', async () => {
    const r = await suite.request(
      0,
      'POST',
      base,
      pod('big', { limits: { cpu: '2' }, requests: { memory: '1Mi' } })
    );
    assert.equal(r.status, 403, r.text);
    assert.equal(
      messageOf(r),
      'pods "big" is forbidden: maximum cpu usage per Container is 1, but limit is 2'
    );
  });
});
