import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { StatusError } from '@orch/apimachinery/errors';

import type { AdmissionRequest, ServicePlugin } from '../interfaces.js';

import { MutatingAdmissionWebhook } from './mutating-admission-webhook.js';
import type { Fixture } from './test-fixture.js';
import { configuration, fixture, hook, podRequest, recordingContext } from './test-fixture.js';
import type { TestWebhookServer } from './test-webhook-server.js';
import { startTestWebhookServer } from './test-webhook-server.js';
import type { WebhookObject } from './webhook-source.js';

let srv: TestWebhookServer;
before(async () => {
  srv = await startTestWebhookServer();
});
after(async () => {
  await srv.close();
});

function setup(hooks: WebhookObject[], config?: unknown): { f: Fixture; plugin: ServicePlugin } {
  const f = fixture(config);
  f.mutating.push(configuration('MutatingWebhookConfiguration', 'm', hooks));
  return { f, plugin: MutatingAdmissionWebhook(f.deps) };
}

const h = (path: string, over: Partial<WebhookObject> = {}): WebhookObject =>
  hook(srv.port, srv.ca.certPem, path, over);

async function admit(plugin: ServicePlugin, req: AdmissionRequest = podRequest()) {
  const ctx = recordingContext();
  assert.ok(plugin.admit);
  await plugin.admit(req, ctx);
  return { req, ctx };
}

async function rejects(p: Promise<unknown>, code: number, message: RegExp): Promise<StatusError> {
  let caught: unknown;
  try {
    await p;
  } catch (err) {
    caught = err;
  }
  assert.ok(caught instanceof StatusError, `expected a StatusError, got ${String(caught)}`);
  assert.equal(caught.code, code, caught.message);
  assert.match(caught.message, message);
  return caught;
}

test('mutates: a JSONPatch reply adding a label is applied to the object', async () => {
  const { plugin } = setup([h('/mutate')]);
  const { req, ctx } = await admit(plugin);
  assert.deepEqual(req.object?.metadata.labels, { app: 'web', mutated: 'by-webhook' });
  assert.equal(
    ctx.annotations['mutation.webhook.admission.orch.io/round_0_index_0'],
    JSON.stringify({ configuration: 'm', webhook: 'mutate.hooks.example.com', mutated: true })
  );
});

test('mutating webhooks run in order, configurations sorted by name, each patch applied before the next call', async () => {
  const f = fixture();
  f.mutating.push(
    configuration('MutatingWebhookConfiguration', 'b-second', [h('/count', { name: 'b.count' })])
  );
  f.mutating.push(
    configuration('MutatingWebhookConfiguration', 'a-first', [
      h('/count', { name: 'a1.count' }),
      h('/count', { name: 'a2.count' }),
    ])
  );
  const plugin = MutatingAdmissionWebhook(f.deps);
  const before = srv.callsTo('/count').length;
  const { req } = await admit(plugin);
  const seen = srv
    .callsTo('/count')
    .slice(before)
    .map((c) => c.review.request.object.metadata.labels.count ?? '0');
  assert.deepEqual(seen, ['0', '1', '2'], 'each call sees the previous patches');
  assert.equal(req.object?.metadata.labels?.['count'], '3');
});

test('admission review response table, row patch: base64 of a JSON Patch; an empty patch changes nothing', async () => {
  const { plugin } = setup([h('/empty-patch')]);
  const original = podRequest();
  const { req, ctx } = await admit(plugin, podRequest());
  assert.deepEqual(req.object, original.object);
  assert.match(
    ctx.annotations['mutation.webhook.admission.orch.io/round_0_index_0'] ?? '',
    /"mutated":false/
  );
});

test('admission review response table, row patchType: only JSONPatch is supported', async () => {
  const { plugin } = setup([h('/merge-patch')]);
  await rejects(
    admit(plugin),
    500,
    /failed calling webhook "merge-patch.hooks.example.com": unsupported patch type "JSONMergePatch"/
  );
  // Under failurePolicy Ignore the unsupported patch is skipped.
  const ignored = setup([h('/merge-patch', { failurePolicy: 'Ignore' })]);
  const { req, ctx } = await admit(ignored.plugin);
  assert.deepEqual(req.object?.metadata.labels, { app: 'web' });
  assert.equal(
    ctx.annotations['failed-open.mutation.webhook.admission.orch.io/round_0_index_0'],
    'true'
  );
});

test('admission review response table, row patchType: a v1 patch without patchType fails; v1beta1 takes it as JSONPatch', async () => {
  const v1 = setup([h('/patch-no-type')]);
  await rejects(
    admit(v1.plugin),
    500,
    /webhook returned response.patch but not response.patchType/
  );
  const beta = setup([h('/patch-no-type', { admissionReviewVersions: ['v1beta1'] })]);
  const { req } = await admit(beta.plugin);
  assert.equal(req.object?.metadata.labels?.['untyped'], 'yes');
});

test('a patch that changes kind, leaves no object, or does not apply fails naming the webhook, whatever the failurePolicy', async () => {
  for (const failurePolicy of ['Fail', 'Ignore']) {
    const kind = setup([h('/kind-change', { failurePolicy })]);
    await rejects(
      admit(kind.plugin),
      500,
      /admission webhook "kind-change.hooks.example.com" returned a patch that cannot be applied: apiVersion and kind may not change/
    );
    const none = setup([h('/no-object', { failurePolicy })]);
    await rejects(
      admit(none.plugin),
      500,
      /admission webhook "no-object.hooks.example.com" returned a patch that cannot be applied/
    );
    const bad = setup([h('/bad-patch', { failurePolicy })]);
    await rejects(
      admit(bad.plugin),
      500,
      /admission webhook "bad-patch.hooks.example.com" returned a patch that cannot be applied/
    );
  }
});

test('a patch that makes the object invalid for its kind fails naming the webhook, whatever the failurePolicy; unknown fields are dropped', async () => {
  for (const failurePolicy of ['Fail', 'Ignore']) {
    const invalid = setup([h('/invalid-object', { failurePolicy })]);
    await rejects(
      admit(invalid.plugin),
      500,
      /admission webhook "invalid-object.hooks.example.com" returned a patch that makes the object an invalid Pod: spec\.containers: /
    );
  }
  const pruned = setup([h('/unknown-field')]);
  const { req } = await admit(pruned.plugin);
  assert.equal(req.object?.metadata.labels?.['kept'], 'yes');
  assert.equal('notAField' in (req.object?.['spec'] as object), false);
});

test('a patch on a DELETE (no object) fails naming the webhook', async () => {
  const { plugin } = setup([h('/mutate')]);
  const req = podRequest({
    operation: 'DELETE',
    object: undefined,
    oldObject: podRequest().object,
    options: { apiVersion: 'meta.orch.io/v1', kind: 'DeleteOptions' },
  });
  await rejects(
    admit(plugin, req),
    500,
    /admission webhook "mutate.hooks.example.com" attempted to modify the object, which is not supported for this operation/
  );
});

test('reinvocationPolicy IfNeeded: reinvoked once when a later webhook changed the object; Never is not', async () => {
  const f = fixture();
  f.mutating.push(
    configuration('MutatingWebhookConfiguration', 'r', [
      h('/allow', { name: 'first.ifneeded', reinvocationPolicy: 'IfNeeded' }),
      h('/allow', { name: 'second.never', reinvocationPolicy: 'Never' }),
      h('/count', { name: 'third.changes', reinvocationPolicy: 'IfNeeded' }),
    ])
  );
  const plugin = MutatingAdmissionWebhook(f.deps);
  const names = (from: number) =>
    srv.calls
      .slice(from)
      .map((c) =>
        c.path === '/count' ? 'third' : (c.review.request.object.metadata.labels.count ?? 'none')
      );
  const start = srv.calls.length;
  const { req } = await admit(plugin);
  // Round 0: first (no count), second (no count), third (sets 1); round 1: first again (count 1).
  // third is not reinvoked: nothing after it changed the object.
  assert.deepEqual(names(start), ['none', 'none', 'third', '1']);
  assert.equal(req.object?.metadata.labels?.['count'], '1');

  // Nothing changes the object: no reinvocation.
  const g = fixture();
  g.mutating.push(
    configuration('MutatingWebhookConfiguration', 'r', [
      h('/allow', { reinvocationPolicy: 'IfNeeded' }),
    ])
  );
  const start2 = srv.calls.length;
  await admit(MutatingAdmissionWebhook(g.deps));
  assert.equal(srv.calls.length - start2, 1);
});

test('admission review response table, row warnings and auditAnnotations: passed on, control characters removed', async () => {
  const { plugin } = setup([h('/warn')]);
  const { ctx } = await admit(plugin);
  assert.deepEqual(ctx.warnings, ['plain warning', 'bell and newline']);
  assert.equal(ctx.annotations['warn.hooks.example.com/checked'], 'yes');
});

test('admission review response table, rows allowed, status.code, status.message: a denial passes the code and message on', async () => {
  const { plugin } = setup([h('/deny')]);
  const err = await rejects(
    admit(plugin),
    418,
    /^admission webhook "deny.hooks.example.com" denied the request: pods may not be named "bad"$/
  );
  assert.equal(err.status.status, 'Failure');
  const bare = setup([h('/deny-bare')]);
  const e2 = await rejects(
    admit(bare.plugin),
    403,
    /^admission webhook "deny-bare.hooks.example.com" denied the request without explanation$/
  );
  assert.equal(e2.reason, 'Forbidden');
  const reason = setup([h('/deny-reason')]);
  await rejects(admit(reason.plugin), 406, /denied the request: NotAcceptable$/);
  const low = setup([h('/deny-low-code')]);
  await rejects(admit(low.plugin), 400, /denied the request: nope$/);
  // A denial fails the request whatever the failurePolicy.
  const ignore = setup([h('/deny', { failurePolicy: 'Ignore' })]);
  await rejects(admit(ignore.plugin), 418, /denied the request/);
});

test('a denial stops the sequence: later mutating webhooks are not called', async () => {
  const { plugin } = setup([h('/deny'), h('/mutate', { name: 'after-deny' })]);
  const before = srv.callsTo('/mutate').length;
  await rejects(admit(plugin), 418, /denied/);
  assert.equal(srv.callsTo('/mutate').length, before);
});

test('webhook configuration table, row sideEffects: a dry run fails for a webhook with side effects, reaches None and NoneOnDryRun with dryRun true', async () => {
  for (const sideEffects of ['Some', 'Unknown']) {
    const { plugin } = setup([h('/allow', { sideEffects })]);
    const before = srv.callsTo('/allow').length;
    const err = await rejects(
      admit(plugin, podRequest({ dryRun: true })),
      400,
      /^admission webhook "allow.hooks.example.com" does not support dry run$/
    );
    assert.equal(err.reason, 'BadRequest');
    assert.equal(srv.callsTo('/allow').length, before, 'not called');
    // Not a dry run: called.
    await admit(plugin);
  }
  for (const sideEffects of ['None', 'NoneOnDryRun']) {
    const { plugin } = setup([h('/mutate', { sideEffects })]);
    const { req } = await admit(plugin, podRequest({ dryRun: true }));
    assert.equal(srv.callsTo('/mutate').at(-1)?.review.request.dryRun, true);
    assert.equal(req.object?.metadata.labels?.['mutated'], 'by-webhook');
  }
});

test('call failures under failurePolicy Fail are 500 "failed calling webhook"; under Ignore skipped with the failed-open annotation', async () => {
  const rows: [string, string, RegExp][] = [
    ['answers garbage', '/garbage', /received invalid webhook response/],
    [
      'answers the wrong uid',
      '/wrong-uid',
      /expected response.uid="[0-9a-f-]{36}", got "not-the-uid"/,
    ],
    ['answers HTTP 500', '/status-500', /the server responded with status 500/],
    [
      'answers without allowed (row allowed: required)',
      '/no-allowed',
      /response.allowed: must be a boolean/,
    ],
    ['answers without response', '/no-response', /webhook response was absent/],
    [
      'answers another AdmissionReview version',
      '/wrong-version',
      /expected webhook response of admission.orch.io\/v1, Kind=AdmissionReview, got admission.orch.io\/v1beta1/,
    ],
    ['answers another kind', '/wrong-kind', /Kind=TokenReview/],
  ];
  for (const [row, path, message] of rows) {
    const { plugin, f } = setup([h(path)]);
    const err = await rejects(admit(plugin), 500, message);
    assert.equal(err.reason, 'InternalError', row);
    assert.match(
      err.message,
      new RegExp(`failed calling webhook "${path.slice(1)}.hooks.example.com"`),
      row
    );
    const ignore = setup([h(path, { failurePolicy: 'Ignore' }), h('/mutate')]);
    const { req, ctx } = await admit(ignore.plugin);
    assert.equal(
      ctx.annotations['failed-open.mutation.webhook.admission.orch.io/round_0_index_0'],
      'true',
      row
    );
    assert.equal(
      req.object?.metadata.labels?.['mutated'],
      'by-webhook',
      `${row}: later webhooks still run`
    );
    const metrics = await f.registry.getSingleMetricAsString(
      'apiserver_admission_webhook_rejection_count'
    );
    assert.match(metrics, /error_type="calling_webhook_error"/, row);
  }
});

test('webhook configuration table, row timeoutSeconds: a webhook that does not answer in time is a failed call', async () => {
  const { plugin } = setup([h('/hang', { timeoutSeconds: 1 })]);
  await rejects(
    admit(plugin),
    500,
    /failed calling webhook "hang.hooks.example.com": failed to call webhook: Post "https:\/\/127.0.0.1:\d+\/hang": timed out after 1s/
  );
  const ignore = setup([h('/hang', { timeoutSeconds: 1, failurePolicy: 'Ignore' })]);
  const { ctx } = await admit(ignore.plugin);
  assert.equal(
    ctx.annotations['failed-open.mutation.webhook.admission.orch.io/round_0_index_0'],
    'true'
  );
});

test('the gateway giving up (context aborted) ends a call', async () => {
  const { plugin } = setup([h('/hang', { failurePolicy: 'Ignore' })]);
  const ac = new AbortController();
  const ctx = recordingContext(ac.signal);
  const done = plugin.admit!(podRequest(), ctx);
  setImmediate(() => ac.abort());
  await rejects(done, 504, /request did not complete within requested timeout/);
});

test('metrics in upstream names: duration, request total, rejection count', async () => {
  const { plugin, f } = setup([h('/mutate')]);
  await admit(plugin);
  const deny = MutatingAdmissionWebhook({ ...f.deps });
  f.mutating.push(configuration('MutatingWebhookConfiguration', 'z', [h('/deny')]));
  await rejects(admit(deny), 418, /denied/);
  const text = await f.registry.metrics();
  assert.match(
    text,
    /apiserver_admission_webhook_admission_duration_seconds_count\{name="mutate.hooks.example.com",type="admit",operation="CREATE",rejected="false"\} [12]/
  );
  assert.match(
    text,
    /apiserver_admission_webhook_request_total\{name="mutate.hooks.example.com",type="admit",operation="CREATE",code="200",rejected="false"\} [12]/
  );
  assert.match(
    text,
    /apiserver_admission_webhook_request_total\{name="deny.hooks.example.com",type="admit",operation="CREATE",code="418",rejected="true"\} 1/
  );
  assert.match(
    text,
    /apiserver_admission_webhook_rejection_count\{name="deny.hooks.example.com",type="admit",operation="CREATE",error_type="no_error",rejection_code="418"\} 1/
  );
});
