// The audit policy end to end: a gateway on the shared suite's backends with a policy of four
// rules at four levels, its log read back: the levels, the stages (RequestReceived omitted where
// the rule says, ResponseStarted for a watch), the bodies only where the level asks for them,
// managed fields left out, and the authorization decision among the annotations; a webhook
// backend in blocking-strict mode, whose failure fails the request.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { sharedSuite, startGateway, startWebhookServer, waitFor } from '@orch/testing';
import type { Suite, WebhookServer } from '@orch/testing';
import type { AuditEvent } from './event.js';

const ns = `audit-${Date.now().toString(36)}`;
const dir = mkdtempSync(join(tmpdir(), 'audit-test-'));
const auditLog = join(dir, 'audit.log');
const policyFile = join(dir, 'policy.yaml');
writeFileSync(
  policyFile,
  `apiVersion: audit.orch.io/v1
kind: Policy
omitManagedFields: true
rules:
- level: None
  nonResourceURLs: ["/healthz*", "/readyz*", "/livez*"]
- level: RequestResponse
  resources: [{group: "", resources: ["configmaps"]}]
  namespaces: ["${ns}"]
- level: Request
  resources: [{group: "", resources: ["secrets"]}]
  omitStages: ["RequestReceived"]
- level: Metadata
`
);

/** A kubeconfig-format file naming `server`'s /audit as the audit webhook. */
function webhookKubeconfig(name: string, server: WebhookServer): string {
  const file = join(dir, name);
  writeFileSync(
    file,
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [
        {
          name: 'audit',
          cluster: { server: server.url('/audit'), 'certificate-authority-data': server.caBundle },
        },
      ],
      contexts: [{ name: 'audit', context: { cluster: 'audit', user: '' } }],
      'current-context': 'audit',
    })
  );
  return file;
}

let shared: Suite;
let gw: Suite;
let receiver: WebhookServer;

before(async () => {
  shared = await sharedSuite();
  receiver = await startWebhookServer(() => ({ status: 200, body: {} }));
  const kubeconfig = webhookKubeconfig('webhook.kubeconfig', receiver);
  gw = await startGateway(shared, {
    args: [
      `--audit-policy-file=${policyFile}`,
      `--audit-log-path=${auditLog}`,
      `--audit-webhook-config-file=${kubeconfig}`,
      '--audit-webhook-batch-max-wait=100ms',
    ],
  });
  const r = await gw.request(0, 'POST', '/api/v1/namespaces', { metadata: { name: ns } });
  assert.equal(r.status, 201, r.text);
});

after(async () => {
  await gw?.request(0, 'DELETE', `/api/v1/namespaces/${ns}`);
  await gw?.stop();
  await receiver?.stop();
  await shared?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const events = (id: unknown): AuditEvent[] =>
  readFileSync(auditLog, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as AuditEvent)
    .filter((e) => e.auditID === id);

/** The events of a request once its ResponseComplete is written. */
async function complete(id: unknown): Promise<AuditEvent[]> {
  await waitFor(
    `ResponseComplete of ${String(id)}`,
    () => Promise.resolve(events(id).some((e) => e.stage === 'ResponseComplete')),
    { timeoutMs: 5000 }
  );
  return events(id);
}

test('RequestResponse: both stages, both bodies, no managed fields', async () => {
  const r = await gw.request(0, 'POST', `/api/v1/namespaces/${ns}/configmaps`, {
    metadata: { name: 'c1' },
    data: { k: 'v' },
  });
  assert.equal(r.status, 201, r.text);
  const evs = await complete(r.headers['audit-id']);
  assert.deepEqual(
    evs.map((e) => [e.stage, e.level]),
    [
      ['RequestReceived', 'RequestResponse'],
      ['ResponseComplete', 'RequestResponse'],
    ]
  );
  const [received, done] = evs as [AuditEvent, AuditEvent];
  assert.equal(received.requestObject, undefined);
  assert.equal(received.responseStatus, undefined);
  assert.deepEqual(done.responseStatus, { code: 201 });
  assert.deepEqual((done.requestObject as { data: unknown }).data, { k: 'v' });
  const resp = done.responseObject as { metadata: Record<string, unknown> };
  assert.equal(resp.metadata['name'], 'c1');
  assert.equal(resp.metadata['managedFields'], undefined);
  assert.ok((r.body as { metadata: { managedFields?: unknown[] } }).metadata.managedFields);
  assert.deepEqual(done.objectRef, {
    resource: 'configmaps',
    namespace: ns,
    name: 'c1',
    apiGroup: '',
    apiVersion: 'v1',
  });
  assert.equal(done.annotations?.['authorization.orch.io/decision'], 'allow');
  assert.equal(typeof done.annotations?.['authorization.orch.io/reason'], 'string');
});

test('Request: the request body only, RequestReceived omitted by the rule', async () => {
  const r = await gw.request(0, 'POST', `/api/v1/namespaces/${ns}/secrets`, {
    metadata: { name: 's1' },
    stringData: { password: 'p' },
  });
  assert.equal(r.status, 201, r.text);
  const evs = await complete(r.headers['audit-id']);
  assert.deepEqual(
    evs.map((e) => [e.stage, e.level]),
    [['ResponseComplete', 'Request']]
  );
  assert.deepEqual((evs[0]!.requestObject as { stringData: unknown }).stringData, {
    password: 'p',
  });
  assert.equal(evs[0]!.responseObject, undefined);
});

test('Metadata: no bodies; a watch has ResponseStarted; None writes nothing', async () => {
  const get = await gw.request(0, 'GET', `/api/v1/namespaces/${ns}`);
  assert.equal(get.status, 200);
  const evs = await complete(get.headers['audit-id']);
  assert.deepEqual(
    evs.map((e) => [e.stage, e.level]),
    [
      ['RequestReceived', 'Metadata'],
      ['ResponseComplete', 'Metadata'],
    ]
  );
  assert.ok(evs.every((e) => e.requestObject === undefined && e.responseObject === undefined));

  const watch = await gw.request(
    0,
    'GET',
    `/api/v1/namespaces/${ns}/configmaps?watch=true&timeoutSeconds=1`
  );
  assert.equal(watch.status, 200);
  const w = await complete(watch.headers['audit-id']);
  assert.deepEqual(
    w.map((e) => [e.stage, e.verb]),
    [
      ['RequestReceived', 'watch'],
      ['ResponseStarted', 'watch'],
      ['ResponseComplete', 'watch'],
    ]
  );
  assert.ok(w.every((e) => e.responseObject === undefined));

  const health = await gw.request(0, 'GET', '/healthz');
  assert.equal(health.status, 200);
  const version = await gw.request(0, 'GET', '/version');
  await complete(version.headers['audit-id']);
  assert.deepEqual(events(health.headers['audit-id']), []);
});

test('a request refused by authorization is audited with the decision', async () => {
  const r = await gw.request(0, 'GET', `/api/v1/namespaces/${ns}/pods`, undefined, {
    'Impersonate-User': 'nobody-at-all',
  });
  assert.equal(r.status, 403, r.text);
  const evs = await complete(r.headers['audit-id']);
  const done = evs.find((e) => e.stage === 'ResponseComplete')!;
  assert.equal(done.level, 'Metadata');
  assert.deepEqual(done.responseStatus, { code: 403 });
  assert.equal(done.impersonatedUser?.username, 'nobody-at-all');
  assert.equal(done.annotations?.['authorization.orch.io/decision'], 'forbid');
});

test('the webhook backend receives the events in EventList batches', async () => {
  const r = await gw.request(0, 'POST', `/api/v1/namespaces/${ns}/configmaps`, {
    metadata: { name: 'c2' },
  });
  assert.equal(r.status, 201, r.text);
  const logged = await complete(r.headers['audit-id']);
  const received = (): AuditEvent[] =>
    receiver
      .callsTo('/audit')
      .flatMap((c) => (c.body as { items: AuditEvent[] }).items)
      .filter((e) => e.auditID === r.headers['audit-id']);
  await waitFor('the webhook batch', () => Promise.resolve(received().length === 2), {
    timeoutMs: 5000,
  });
  assert.deepEqual(received(), logged);
  for (const c of receiver.callsTo('/audit')) {
    const list = c.body as { kind: string; apiVersion: string; items: unknown[] };
    assert.equal(list.kind, 'EventList');
    assert.equal(list.apiVersion, 'audit.orch.io/v1');
    assert.ok(list.items.length >= 1 && list.items.length <= 400);
  }
  const metrics = await gw.request(0, 'GET', '/metrics');
  assert.match(metrics.text, /^apiserver_audit_event_total \d+/m);
  assert.match(metrics.text, /^apiserver_audit_level_total\{level="RequestResponse"\} \d+/m);
});

test('webhook blocking-strict: the response waits for its events; a backend that fails fails the request and stores nothing', async () => {
  let failing = false;
  const strictReceiver = await startWebhookServer(() =>
    failing ? { status: 500, body: {} } : { status: 200, body: {} }
  );
  const kubeconfig = webhookKubeconfig('strict.kubeconfig', strictReceiver);
  const strict = await startGateway(shared, {
    args: [
      `--audit-policy-file=${policyFile}`,
      `--audit-webhook-config-file=${kubeconfig}`,
      '--audit-webhook-mode=blocking-strict',
      '--audit-webhook-initial-backoff=10ms',
    ],
  });
  try {
    const cms = `/api/v1/namespaces/${ns}/configmaps`;
    const r = await strict.request(0, 'POST', cms, { metadata: { name: 'strict-ok' } });
    assert.equal(r.status, 201, r.text);
    // Blocking: the event was with the receiver before the answer came, no waiting needed.
    const received = strictReceiver
      .callsTo('/audit')
      .flatMap((c) => (c.body as { items: AuditEvent[] }).items)
      .filter((e) => e.auditID === r.headers['audit-id']);
    assert.deepEqual(
      received.map((e) => e.stage),
      ['RequestReceived', 'ResponseComplete']
    );

    failing = true;
    const refused = await strict.request(0, 'POST', cms, { metadata: { name: 'strict-refused' } });
    assert.equal(refused.status, 500, refused.text);
    assert.equal(
      (refused.body as { message: string }).message,
      'Internal error occurred: failed to store audit event'
    );
    failing = false;
    assert.equal((await gw.request(0, 'GET', `${cms}/strict-refused`)).status, 404);
  } finally {
    await strict.stop();
    await strictReceiver.stop();
  }
});
