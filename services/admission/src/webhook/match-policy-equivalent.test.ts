// matchPolicy on a kind served in two versions (HorizontalPodAutoscalers in autoscaling/v1 and
// v2, one stored collection), against a real HTTPS webhook server: under Equivalent a webhook
// registered for v2 is called for a write through v1, with the object converted to v2,
// request.kind/resource the matched v2 and requestKind/requestResource the v1 of the request;
// a mutation made at v2 comes back at v1. Under Exact it is not called. Upstream:
// test/integration/apiserver/admissionwebhook/admission_test.go (the Equivalent rows).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import type { ApiObject } from '@orch/apimachinery/meta';

import type { AdmissionRequest } from '../interfaces.js';
import { compileMatchConditions } from '../policy/match-conditions.js';

import { MutatingAdmissionWebhook } from './mutating-admission-webhook.js';
import { configuration, fixture, hook, podRequest, recordingContext } from './test-fixture.js';
import type { TestWebhookServer } from './test-webhook-server.js';
import { startTestWebhookServer } from './test-webhook-server.js';
import { ValidatingAdmissionWebhook } from './validating-admission-webhook.js';
import type { WebhookObject } from './webhook-source.js';

let srv: TestWebhookServer;
before(async () => {
  srv = await startTestWebhookServer();
});
after(async () => {
  await srv.close();
});

const v1Hpa: ApiObject = {
  apiVersion: 'autoscaling/v1',
  kind: 'HorizontalPodAutoscaler',
  metadata: { name: 'web', namespace: 'team-a' },
  spec: {
    scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
    minReplicas: 1,
    maxReplicas: 5,
    targetCPUUtilizationPercentage: 60,
  },
};

/** A create of an HPA through autoscaling/v1. */
const v1Create = (): AdmissionRequest =>
  podRequest({
    kind: { group: 'autoscaling', version: 'v1', kind: 'HorizontalPodAutoscaler' },
    resource: { group: 'autoscaling', version: 'v1', resource: 'horizontalpodautoscalers' },
    name: 'web',
    object: structuredClone(v1Hpa),
  });

/** A webhook whose only rule names autoscaling/v2 HPAs. */
const v2Hook = (path: string, matchPolicy: 'Equivalent' | 'Exact'): WebhookObject =>
  hook(srv.port, srv.ca.certPem, path, {
    matchPolicy,
    rules: [
      {
        operations: ['CREATE'],
        apiGroups: ['autoscaling'],
        apiVersions: ['v2'],
        resources: ['horizontalpodautoscalers'],
      },
    ],
  });

async function callsDuring(fn: () => Promise<unknown>) {
  const start = srv.calls.length;
  await fn();
  return srv.calls.slice(start);
}

test('matchPolicy Equivalent: a webhook for autoscaling/v2 is sent a v1 write as v2, with requestKind and requestResource the v1 ones', async () => {
  const f = fixture();
  f.validating.push(
    configuration('ValidatingWebhookConfiguration', 'v', [v2Hook('/allow', 'Equivalent')])
  );
  const plugin = ValidatingAdmissionWebhook(f.deps);
  const calls = await callsDuring(() => plugin.validate!(v1Create(), recordingContext()));
  assert.equal(calls.length, 1);
  const request = (calls[0]!.review as { request: Record<string, unknown> }).request;
  assert.deepEqual(request['kind'], {
    group: 'autoscaling',
    version: 'v2',
    kind: 'HorizontalPodAutoscaler',
  });
  assert.deepEqual(request['resource'], {
    group: 'autoscaling',
    version: 'v2',
    resource: 'horizontalpodautoscalers',
  });
  assert.deepEqual(request['requestKind'], {
    group: 'autoscaling',
    version: 'v1',
    kind: 'HorizontalPodAutoscaler',
  });
  assert.deepEqual(request['requestResource'], {
    group: 'autoscaling',
    version: 'v1',
    resource: 'horizontalpodautoscalers',
  });
  const object = request['object'] as { apiVersion: string; spec: Record<string, unknown> };
  assert.equal(object.apiVersion, 'autoscaling/v2');
  assert.deepEqual(object.spec['metrics'], [
    {
      type: 'Resource',
      resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 60 } },
    },
  ]);
  assert.equal(object.spec['targetCPUUtilizationPercentage'], undefined);
  // The plugin's pre-check counts the equivalent rule too (the validating call is not left out).
  assert.equal(await plugin.mayValidate!(v1Create()), true);
});

test('matchPolicy Exact: a webhook for autoscaling/v2 is not called for a v1 write', async () => {
  const f = fixture();
  f.validating.push(
    configuration('ValidatingWebhookConfiguration', 'v', [v2Hook('/deny', 'Exact')])
  );
  const plugin = ValidatingAdmissionWebhook(f.deps);
  const calls = await callsDuring(() => plugin.validate!(v1Create(), recordingContext()));
  assert.equal(calls.length, 0);
  assert.equal(await plugin.mayValidate!(v1Create()), false);
});

test('matchPolicy Equivalent: a mutation a webhook makes to the v2 object comes back converted to the v1 of the request', async () => {
  const f = fixture();
  f.mutating.push(
    configuration('MutatingWebhookConfiguration', 'm', [v2Hook('/mutate', 'Equivalent')])
  );
  const plugin = MutatingAdmissionWebhook(f.deps);
  const req = v1Create();
  const calls = await callsDuring(() => plugin.admit!(req, recordingContext()));
  assert.equal(calls.length, 1);
  assert.equal(req.object?.apiVersion, 'autoscaling/v1');
  assert.deepEqual(req.object?.metadata.labels, { mutated: 'by-webhook' });
  assert.equal(
    (req.object?.['spec'] as Record<string, unknown>)['targetCPUUtilizationPercentage'],
    60
  );
  assert.equal((req.object?.['spec'] as Record<string, unknown>)['metrics'], undefined);
});

test('matchPolicy Equivalent: matchConditions see request.kind as the matched v2 and request.resource as the request v1 (upstream CreateAdmissionRequest of the versioned attributes)', async () => {
  const callsWith = async (expression: string): Promise<number> => {
    const f = fixture();
    f.deps.matchConditions = compileMatchConditions;
    f.validating.push(
      configuration('ValidatingWebhookConfiguration', 'v', [
        { ...v2Hook('/allow', 'Equivalent'), matchConditions: [{ name: 'c', expression }] },
      ])
    );
    const plugin = ValidatingAdmissionWebhook(f.deps);
    const calls = await callsDuring(() => plugin.validate!(v1Create(), recordingContext()));
    return calls.length;
  };
  assert.equal(await callsWith("request.kind.version == 'v2'"), 1);
  assert.equal(await callsWith("request.requestKind.version == 'v1'"), 1);
  assert.equal(await callsWith("request.resource.version == 'v1'"), 1);
  assert.equal(await callsWith("object.apiVersion == 'autoscaling/v2'"), 1);
  assert.equal(await callsWith("request.kind.version == 'v1'"), 0);
});

test('matchPolicy Equivalent: a webhook for events.orch.io/v1 Events is sent a core v1 Event write as events.orch.io/v1 (one collection under two groups, upstream "/events")', async () => {
  const f = fixture();
  f.validating.push(
    configuration('ValidatingWebhookConfiguration', 'v', [
      hook(srv.port, srv.ca.certPem, '/allow', {
        rules: [
          {
            operations: ['CREATE'],
            apiGroups: ['events.orch.io'],
            apiVersions: ['v1'],
            resources: ['events'],
          },
        ],
      }),
    ])
  );
  const plugin = ValidatingAdmissionWebhook(f.deps);
  const coreEvent = (): AdmissionRequest =>
    podRequest({
      kind: { group: '', version: 'v1', kind: 'Event' },
      resource: { group: '', version: 'v1', resource: 'events' },
      name: 'web.1',
      object: {
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name: 'web.1', namespace: 'team-a' },
        involvedObject: { kind: 'Pod', name: 'web', namespace: 'team-a' },
        message: 'pulled',
        reason: 'Pulled',
        reportingComponent: 'node-agent',
      },
    });
  const calls = await callsDuring(() => plugin.validate!(coreEvent(), recordingContext()));
  assert.equal(calls.length, 1);
  const request = (calls[0]!.review as { request: Record<string, unknown> }).request;
  assert.deepEqual(request['kind'], { group: 'events.orch.io', version: 'v1', kind: 'Event' });
  assert.deepEqual(request['requestKind'], { group: '', version: 'v1', kind: 'Event' });
  const object = request['object'] as Record<string, unknown>;
  assert.equal(object['apiVersion'], 'events.orch.io/v1');
  assert.equal(object['note'], 'pulled');
  assert.equal(object['reportingController'], 'node-agent');
  assert.deepEqual(object['regarding'], { kind: 'Pod', name: 'web', namespace: 'team-a' });

  const exact = fixture();
  exact.validating.push(
    configuration('ValidatingWebhookConfiguration', 'x', [
      hook(srv.port, srv.ca.certPem, '/deny', {
        matchPolicy: 'Exact',
        rules: [
          {
            operations: ['CREATE'],
            apiGroups: ['events.orch.io'],
            apiVersions: ['v1'],
            resources: ['events'],
          },
        ],
      }),
    ])
  );
  const exactPlugin = ValidatingAdmissionWebhook(exact.deps);
  const none = await callsDuring(() => exactPlugin.validate!(coreEvent(), recordingContext()));
  assert.equal(none.length, 0);
});
