// The service plugins through the gateway, in a real suite (the admission service a process of
// its own, mutual TLS): gateway 1 runs AlwaysPullImages, gateway 2 AlwaysDeny, gateway 0 the
// default set, gateway 3 the default set without the plugins whose scope is dynamic (webhooks,
// policies, quota); on gateway 0 a webhook configuration or a quota brings the calls back while
// it exists. Last, the admission service stopped: writes fail closed and store nothing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { reviewResponse, startSuite, startWebhookServer, waitFor } from '@orch/testing';
import type { Suite, SuiteResponse, WebhookServer } from '@orch/testing';

let suite: Suite;
const ns = 'admission-service';
const pullImages = 1;
const deny = 2;
const staticOnly = 3;

interface Container {
  name: string;
  image: string;
  imagePullPolicy?: string;
}
const pod = (name: string, policy = 'IfNotPresent') => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name },
  spec: {
    initContainers: [{ name: 'init', image: 'busybox:1.36', imagePullPolicy: policy }],
    containers: [
      { name: 'app', image: 'nginx:1.25', imagePullPolicy: policy },
      { name: 'side', image: 'envoy:1.29' },
    ],
  },
});
const policies = (r: SuiteResponse): (string | undefined)[] => {
  const spec = (r.body as { spec: Record<string, Container[] | undefined> }).spec;
  return [...(spec['initContainers'] ?? []), ...(spec['containers'] ?? [])].map(
    (c) => c.imagePullPolicy
  );
};
const cm = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } });
const messageOf = (r: SuiteResponse): string => (r.body as { message?: string }).message ?? '';
const reasonOf = (r: SuiteResponse): string => (r.body as { reason?: string }).reason ?? '';
const merge = { 'Content-Type': 'application/merge-patch+json' };

before(async () => {
  suite = await startSuite({
    gateways: [
      {},
      { args: ['--enable-admission-plugins=AlwaysPullImages'] },
      { args: ['--enable-admission-plugins=AlwaysDeny'] },
      {
        args: [
          '--disable-admission-plugins=MutatingAdmissionWebhook,ValidatingAdmissionPolicy,ValidatingAdmissionWebhook,ResourceQuota',
        ],
      },
    ],
  });
  const created = await suite.request(0, 'POST', '/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: ns },
  });
  assert.equal(created.status, 201, created.text);
});

after(async () => {
  await suite?.stop();
});

describe('AlwaysPullImages (admission service)', () => {
  it('create: every container, init container included, is stored with Always', async () => {
    const r = await suite.request(pullImages, 'POST', `/api/v1/namespaces/${ns}/pods`, pod('p1'));
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(policies(r), ['Always', 'Always', 'Always']);
    const stored = await suite.request(0, 'GET', `/api/v1/namespaces/${ns}/pods/p1`);
    assert.deepEqual(policies(stored), ['Always', 'Always', 'Always']);
  });

  it('the mutation runs before validation: its validating half refuses nothing it mutated', async () => {
    // The pod is sent with Never everywhere; the validate step of the plugin refuses any
    // policy but Always, so a 201 shows the admit step changed it first.
    const r = await suite.request(
      pullImages,
      'POST',
      `/api/v1/namespaces/${ns}/pods`,
      pod('p-never', 'Never')
    );
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(policies(r), ['Always', 'Always', 'Always']);
  });

  it('update with a new image: set to Always again', async () => {
    const current = await suite.request(0, 'GET', `/api/v1/namespaces/${ns}/pods/p1`);
    const body = current.body as ReturnType<typeof pod>;
    body.spec.containers[0]!.image = 'nginx:1.26';
    body.spec.containers[0]!.imagePullPolicy = 'IfNotPresent';
    const r = await suite.request(pullImages, 'PUT', `/api/v1/namespaces/${ns}/pods/p1`, body);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(policies(r), ['Always', 'Always', 'Always']);
  });

  it('patch bringing a new image: set to Always', async () => {
    // Created through the plugin (Always everywhere): a pod update may change images but not
    // imagePullPolicy (upstream ValidatePodUpdate), so the patch's IfNotPresent must be undone.
    await suite.request(pullImages, 'POST', `/api/v1/namespaces/${ns}/pods`, pod('p2'));
    const before = await suite.request(0, 'GET', `/api/v1/namespaces/${ns}/pods/p2`);
    assert.deepEqual(policies(before), ['Always', 'Always', 'Always']);
    const r = await suite.request(
      pullImages,
      'PATCH',
      `/api/v1/namespaces/${ns}/pods/p2`,
      {
        // The stored containers (their defaults kept: a pod update may change only images)
        // with a new image and IfNotPresent.
        spec: {
          containers: (before.body as ReturnType<typeof pod>).spec.containers.map((c) => ({
            ...c,
            image: c.name === 'app' ? 'nginx:1.27' : c.image,
            imagePullPolicy: 'IfNotPresent',
          })),
        },
      },
      merge
    );
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(policies(r), ['Always', 'Always', 'Always']);
  });

  it('dry-run create returns the mutated pod and stores nothing', async () => {
    const r = await suite.request(
      pullImages,
      'POST',
      `/api/v1/namespaces/${ns}/pods?dryRun=All`,
      pod('p-dry')
    );
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(policies(r), ['Always', 'Always', 'Always']);
    assert.equal(
      (await suite.request(0, 'GET', `/api/v1/namespaces/${ns}/pods/p-dry`)).status,
      404
    );
  });

  it('other kinds are left alone', async () => {
    const r = await suite.request(pullImages, 'POST', `/api/v1/namespaces/${ns}/configmaps`, {
      ...cm('c-pull'),
      data: { imagePullPolicy: 'Never' },
    });
    assert.equal(r.status, 201, r.text);
    assert.deepEqual((r.body as { data: unknown }).data, { imagePullPolicy: 'Never' });
  });

  it('the default gateway, without it, keeps the policy sent', async () => {
    const r = await suite.request(0, 'POST', `/api/v1/namespaces/${ns}/pods`, pod('p-plain'));
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(policies(r), ['IfNotPresent', 'IfNotPresent', 'IfNotPresent']);
  });
});

/** orch_gateway_admission_service_calls_total of a gateway, by `phase/result`. */
async function calls(gateway: number): Promise<Record<string, number>> {
  const r = await suite.request(gateway, 'GET', '/metrics', undefined, { Accept: 'text/plain' });
  assert.equal(r.status, 200, r.text);
  const out: Record<string, number> = {};
  const line =
    /^orch_gateway_admission_service_calls_total\{phase="(\w+)",result="(\w+)"\} (\d+)$/gm;
  for (const m of r.text.matchAll(line)) out[`${m[1]}/${m[2]}`] = Number(m[3]);
  return out;
}
const delta = (a: Record<string, number>, b: Record<string, number>, k: string): number =>
  (b[k] ?? 0) - (a[k] ?? 0);

describe('admission calls no plugin can act on', () => {
  it('a ConfigMap skips both calls when every plugin of the run has a static scope', async () => {
    const before = await calls(staticOnly);
    const r = await suite.request(
      staticOnly,
      'POST',
      `/api/v1/namespaces/${ns}/configmaps`,
      cm('c-skip')
    );
    assert.equal(r.status, 201, r.text);
    const after = await calls(staticOnly);
    assert.equal(delta(before, after, 'mutating/skipped'), 1);
    assert.equal(delta(before, after, 'validating/skipped'), 1);
    assert.equal(delta(before, after, 'mutating/made'), 0);
    assert.equal(delta(before, after, 'validating/made'), 0);
  });

  it('a pod on the same gateway still goes through the service (its plugins mutate it)', async () => {
    const before = await calls(staticOnly);
    const r = await suite.request(staticOnly, 'POST', `/api/v1/namespaces/${ns}/pods`, pod('p-s'));
    assert.equal(r.status, 201, r.text);
    const after = await calls(staticOnly);
    assert.equal(delta(before, after, 'mutating/made'), 1);
    // DefaultTolerationSeconds ran in the service.
    const tolerations = (r.body as { spec: { tolerations?: { key: string }[] } }).spec.tolerations;
    assert.ok(
      tolerations?.some((t) => t.key === 'node.orch.io/not-ready'),
      r.text
    );
  });
});

describe("admission calls the gateway's caches prove idle (the default set: webhooks, quota)", () => {
  const quotaNs = 'admission-service-quota';
  let hook: WebhookServer;
  let n = 0;
  /** A ConfigMap create on gateway 0 and the calls it made and skipped, by phase. */
  const create = async (prefix: string, namespace = ns) => {
    const before = await calls(0);
    const r = await suite.request(
      0,
      'POST',
      `/api/v1/namespaces/${namespace}/configmaps`,
      cm(`${prefix}-${++n}`)
    );
    const after = await calls(0);
    const d = (k: string) => delta(before, after, k);
    return {
      r,
      skipped: d('mutating/skipped') === 1 && d('validating/skipped') === 1,
      made: d('mutating/made') === 1 && d('validating/made') === 1,
    };
  };
  const wait = { timeoutMs: 20_000, intervalMs: 100 };
  const webhooks = '/apis/admissionregistration.orch.io/v1/validatingwebhookconfigurations';

  before(async () => {
    // Denies ConfigMaps named dyn-*, admits the rest (a later file's writes are left alone
    // even while the admission service has not yet seen the configuration go).
    hook = await startWebhookServer((call) => {
      const name = (call.body as { request?: { name?: string } }).request?.name ?? '';
      const deny = name.startsWith('dyn-');
      return {
        body: reviewResponse(
          call.body,
          deny
            ? { allowed: false, status: { code: 403, message: 'dyn says no' } }
            : { allowed: true }
        ),
      };
    });
    const r = await suite.request(0, 'POST', '/api/v1/namespaces', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: quotaNs },
    });
    assert.equal(r.status, 201, r.text);
  });
  after(async () => {
    await hook?.stop();
  });

  it('without webhook configurations or quotas, a ConfigMap create skips both calls', async () => {
    // Once the gateway's caches are synced and the service said it has no limitedResources.
    await waitFor('a skipped create', async () => (await create('cm')).skipped, wait);
    const c = await create('cm');
    assert.equal(c.r.status, 201, c.r.text);
    assert.ok(c.skipped);
  });

  it('a webhook configuration matching ConfigMaps makes the calls again; its webhook denies', async () => {
    const r = await suite.request(0, 'POST', webhooks, {
      apiVersion: 'admissionregistration.orch.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name: 'dyn-deny' },
      webhooks: [
        {
          name: 'deny.dyn.example.com',
          rules: [
            {
              operations: ['CREATE'],
              apiGroups: [''],
              apiVersions: ['v1'],
              resources: ['configmaps'],
            },
          ],
          clientConfig: { url: hook.url('/deny'), caBundle: hook.caBundle },
          sideEffects: 'None',
          admissionReviewVersions: ['v1'],
          failurePolicy: 'Fail',
        },
      ],
    });
    assert.equal(r.status, 201, r.text);
    await waitFor('a denied create', async () => (await create('dyn')).r.status === 403, wait);
    const called = hook.callsTo('/deny').length;
    const c = await create('dyn');
    assert.equal(c.r.status, 403, c.r.text);
    assert.match(messageOf(c.r), /dyn says no/);
    assert.ok(c.made, 'both calls made');
    assert.equal(hook.callsTo('/deny').length, called + 1);
    // Other namespaced writes it does not match (a Secret) still skip.
    const before = await calls(0);
    const s = await suite.request(0, 'POST', `/api/v1/namespaces/${ns}/secrets`, {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: `s-${++n}` },
    });
    assert.equal(s.status, 201, s.text);
    assert.equal(delta(before, await calls(0), 'mutating/skipped'), 1);
  });

  it('the configuration deleted, skipping resumes', async () => {
    const r = await suite.request(0, 'DELETE', `${webhooks}/dyn-deny`);
    assert.equal(r.status, 200, r.text);
    await waitFor('a skipped create', async () => (await create('cm')).skipped, wait);
  });

  it('a ResourceQuota makes the calls in its namespace only; deleted, skipping resumes', async () => {
    const quotas = `/api/v1/namespaces/${quotaNs}/resourcequotas`;
    const r = await suite.request(0, 'POST', quotas, {
      apiVersion: 'v1',
      kind: 'ResourceQuota',
      metadata: { name: 'q' },
      spec: { hard: { 'count/configmaps': '100' } },
    });
    assert.equal(r.status, 201, r.text);
    // Admitted or refused (no quota controller fills its status here): the calls are made.
    await waitFor('a create with calls', async () => (await create('q', quotaNs)).made, wait);
    assert.ok((await create('q', quotaNs)).made);
    assert.ok((await create('cm')).skipped, 'another namespace still skips');
    const d = await suite.request(0, 'DELETE', `${quotas}/q`);
    assert.equal(d.status, 200, d.text);
    await waitFor('a skipped create', async () => (await create('q', quotaNs)).skipped, wait);
  });
});

describe('PodSecurity on a pod controller: the calls only where its warn or audit level is not privileged', () => {
  const psNs = 'admission-service-podsecurity';
  const wait = { timeoutMs: 20_000, intervalMs: 100 };
  let n = 0;
  /** A privileged Deployment created on gateway 0 (baseline forbids it) and the calls it made. */
  const create = async () => {
    const before = await calls(0);
    const r = await suite.request(0, 'POST', `/apis/apps/v1/namespaces/${psNs}/deployments`, {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: `d-${++n}` },
      spec: {
        selector: { matchLabels: { app: 'd' } },
        template: {
          metadata: { labels: { app: 'd' } },
          spec: {
            containers: [
              { name: 'app', image: 'nginx:1.25', securityContext: { privileged: true } },
            ],
          },
        },
      },
    });
    const after = await calls(0);
    const d = (k: string) => delta(before, after, k);
    const warning = r.headers['warning'];
    return {
      r,
      warnings: Array.isArray(warning) ? warning.join('\n') : (warning ?? ''),
      skipped: d('mutating/skipped') === 1 && d('validating/skipped') === 1,
      made: d('mutating/made') === 1 && d('validating/made') === 1,
    };
  };
  const label = async (labels: Record<string, string | null>) => {
    const r = await suite.request(
      0,
      'PATCH',
      `/api/v1/namespaces/${psNs}`,
      { metadata: { labels } },
      merge
    );
    assert.equal(r.status, 200, r.text);
  };

  before(async () => {
    const r = await suite.request(0, 'POST', '/api/v1/namespaces', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: psNs },
    });
    assert.equal(r.status, 201, r.text);
  });

  it('an unlabelled namespace (the defaults: privileged): both calls skipped, no warning', async () => {
    await waitFor('a skipped create', async () => (await create()).skipped, wait);
    const c = await create();
    assert.equal(c.r.status, 201, c.r.text);
    assert.ok(c.skipped);
    assert.doesNotMatch(c.warnings, /PodSecurity/);
  });

  it('labelled warn=baseline: the calls are made and the warning comes back; unlabelled, skipping resumes', async () => {
    await label({ 'pod-security.orch.io/warn': 'baseline' });
    await waitFor('a create with calls', async () => (await create()).made, wait);
    const c = await create();
    assert.equal(c.r.status, 201, c.r.text);
    assert.ok(c.made, 'both calls made');
    // The Warning header quotes its text (299 - "…"), escaping the quotes within.
    assert.match(c.warnings, /would violate PodSecurity \\"baseline:latest\\": privileged/);
    await label({ 'pod-security.orch.io/warn': null });
    await waitFor('a skipped create', async () => (await create()).skipped, wait);
  });

  it('labelled audit=restricted (no warning, an audit annotation): the calls are made', async () => {
    await label({ 'pod-security.orch.io/audit': 'restricted' });
    await waitFor('a create with calls', async () => (await create()).made, wait);
    await label({ 'pod-security.orch.io/audit': null });
  });
});

describe('AlwaysDeny (admission service)', () => {
  const denied = (r: SuiteResponse, what: string): void => {
    assert.equal(r.status, 403, r.text);
    assert.equal(reasonOf(r), 'Forbidden');
    assert.equal(
      messageOf(r),
      `${what} is forbidden: admission control is denying all modifications`
    );
  };

  before(async () => {
    for (const name of ['d1', 'd2']) {
      const r = await suite.request(0, 'POST', `/api/v1/namespaces/${ns}/configmaps`, cm(name));
      assert.equal(r.status, 201, r.text);
    }
  });

  const rows: { name: string; method: string; path: string; body?: unknown; what: string }[] = [
    {
      name: 'create',
      method: 'POST',
      path: `/api/v1/namespaces/${ns}/configmaps`,
      body: cm('new'),
      what: 'configmaps "new"',
    },
    {
      name: 'update',
      method: 'PUT',
      path: `/api/v1/namespaces/${ns}/configmaps/d1`,
      body: { ...cm('d1'), data: { x: '1' } },
      what: 'configmaps "d1"',
    },
    {
      name: 'patch',
      method: 'PATCH',
      path: `/api/v1/namespaces/${ns}/configmaps/d1`,
      body: { data: { x: '2' } },
      what: 'configmaps "d1"',
    },
    {
      name: 'delete',
      method: 'DELETE',
      path: `/api/v1/namespaces/${ns}/configmaps/d1`,
      what: 'configmaps "d1"',
    },
    {
      name: 'deletecollection',
      method: 'DELETE',
      path: `/api/v1/namespaces/${ns}/configmaps`,
      what: 'configmaps',
    },
    {
      name: 'a writing subresource (pods/status)',
      method: 'PATCH',
      path: `/api/v1/namespaces/${ns}/pods/p1/status`,
      body: { status: { message: 'x' } },
      what: 'pods "p1"',
    },
  ];
  for (const row of rows) {
    it(`denies ${row.name}, and nothing changes`, async () => {
      const before = await suite.request(0, 'GET', `/api/v1/namespaces/${ns}/configmaps`);
      const r = await suite.request(
        deny,
        row.method,
        row.path,
        row.body,
        row.method === 'PATCH' ? merge : {}
      );
      denied(r, row.what);
      const afterList = await suite.request(0, 'GET', `/api/v1/namespaces/${ns}/configmaps`);
      // The items, not the list's resourceVersion: that is the cluster's revision, which any
      // write elsewhere moves.
      const items = (l: { body: unknown }) => (l.body as { items: unknown[] }).items;
      assert.deepEqual(items(afterList), items(before));
    });
  }

  it('never denies get, list or watch', async () => {
    assert.equal(
      (await suite.request(deny, 'GET', `/api/v1/namespaces/${ns}/configmaps/d1`)).status,
      200
    );
    assert.equal(
      (await suite.request(deny, 'GET', `/api/v1/namespaces/${ns}/configmaps`)).status,
      200
    );
    const watch = await suite.request(
      deny,
      'GET',
      `/api/v1/namespaces/${ns}/configmaps?watch=true&timeoutSeconds=1`
    );
    assert.equal(watch.status, 200);
    assert.match(watch.text, /"type":"ADDED"/);
  });
});

describe('the admission service stopped', () => {
  it('fails writes closed with a Status saying admission could not run; nothing is stored', async () => {
    await suite.stopAdmission();
    const r = await suite.request(pullImages, 'POST', `/api/v1/namespaces/${ns}/pods`, pod('p-x'));
    assert.equal(r.status, 503, r.text);
    assert.equal(reasonOf(r), 'ServiceUnavailable');
    assert.match(
      messageOf(r),
      /^admission could not run: the admission service \(plugins LimitRanger, TaintNodesByCondition, AlwaysPullImages, PodSecurity, Priority, DefaultTolerationSeconds, DefaultStorageClass, StorageObjectInUseProtection, PersistentVolumeClaimResize, RuntimeClass, DefaultIngressClass, MutatingAdmissionWebhook, ValidatingAdmissionPolicy, ValidatingAdmissionWebhook, ResourceQuota\) failed: /
    );
    const got = await suite.request(0, 'GET', `/api/v1/namespaces/${ns}/pods/p-x`);
    assert.equal(got.status, 404, 'pods/p-x was not stored');
    // A ConfigMap no plugin can act on (no webhook configuration, policy or quota in the
    // gateway's caches) needs no call: admitted as the service would have admitted it.
    const before = await calls(pullImages);
    const d = await suite.request(
      pullImages,
      'POST',
      `/api/v1/namespaces/${ns}/configmaps`,
      cm('c-x')
    );
    assert.equal(d.status, 201, d.text);
    const after = await calls(pullImages);
    assert.equal(delta(before, after, 'mutating/skipped'), 1);
    assert.equal(delta(before, after, 'mutating/made'), 0);
    // Reads go on; /readyz says why writes fail.
    assert.equal((await suite.request(0, 'GET', `/api/v1/namespaces/${ns}/pods`)).status, 200);
    const ready = await suite.request(0, 'GET', '/readyz?verbose');
    assert.notEqual(ready.status, 200);
    assert.match(ready.text, /admission-service failed/);
  });
});
