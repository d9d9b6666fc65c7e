// matchPolicy Equivalent over a custom resource served in two versions (example.com v1 with
// spec.size, v2 with spec.replicas), against the real HTTPS test webhook server, which is also
// the CRD's conversion webhook: a webhook registered for v2 is sent a v1 write as v2, converted
// by the CRD's strategy (None: apiVersion only; Webhook: the conversion webhook), and a mutation
// it makes at v2 comes back at v1. Upstream registers every served version of a CRD as
// equivalent (apiextensions-apiserver customresource_handler.go) and converts with the CRD's
// converter; test/integration/apiserver/admissionwebhook/admission_test.go covers CRDs too.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import type { ApiObject } from '@orch/apimachinery/meta';

import type { AdmissionRequest } from '../interfaces.js';
import { ValidatingAdmissionPolicy } from '../policy/validating-admission-policy.js';

import { MutatingAdmissionWebhook } from './mutating-admission-webhook.js';
import { configuration, fixture, hook, podRequest, recordingContext } from './test-fixture.js';
import type { Fixture } from './test-fixture.js';
import type { TestWebhookServer } from './test-webhook-server.js';
import { startTestWebhookServer } from './test-webhook-server.js';
import { ValidatingAdmissionWebhook } from './validating-admission-webhook.js';

let srv: TestWebhookServer;
before(async () => {
  srv = await startTestWebhookServer();
});
after(async () => {
  await srv.close();
});

const openSchema = {
  openAPIV3Schema: {
    type: 'object',
    properties: { spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
  },
};

function widgetsCrd(strategy: 'None' | 'Webhook'): ApiObject {
  return {
    apiVersion: 'apiextensions.orch.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.example.com', uid: 'crd-uid' },
    spec: {
      group: 'example.com',
      names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
      scope: 'Namespaced',
      versions: [
        { name: 'v1', served: true, storage: true, schema: openSchema },
        {
          name: 'v2',
          served: true,
          storage: false,
          schema: openSchema,
          subresources: { status: {} },
        },
        { name: 'v3', served: false, storage: false, schema: openSchema },
      ],
      conversion:
        strategy === 'None'
          ? { strategy: 'None' }
          : {
              strategy: 'Webhook',
              webhook: {
                conversionReviewVersions: ['v1'],
                clientConfig: {
                  url: `https://127.0.0.1:${srv.port}/convert`,
                  caBundle: Buffer.from(srv.ca.certPem).toString('base64'),
                },
              },
            },
    },
  };
}

/** A create of a Widget through example.com/v1. */
const v1Create = (): AdmissionRequest =>
  podRequest({
    kind: { group: 'example.com', version: 'v1', kind: 'Widget' },
    resource: { group: 'example.com', version: 'v1', resource: 'widgets' },
    name: 'w',
    object: {
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      metadata: { name: 'w', namespace: 'team-a', uid: 'w-uid' },
      spec: { size: 3 },
    },
  });

const rulesFor = (version: string, resource = 'widgets') => [
  {
    operations: ['CREATE'],
    apiGroups: ['example.com'],
    apiVersions: [version],
    resources: [resource],
  },
];

function withCrd(strategy: 'None' | 'Webhook'): Fixture {
  const f = fixture();
  f.crds.push(widgetsCrd(strategy));
  return f;
}

async function callsDuring(path: string, fn: () => Promise<unknown>) {
  const start = srv.callsTo(path).length;
  await fn();
  return srv.callsTo(path).slice(start);
}

const requestOf = (call: { review: unknown }) =>
  (call.review as { request: Record<string, unknown> }).request;

test('matchPolicy Equivalent, CRD conversion None: a webhook for example.com/v2 widgets is sent a v1 write as v2 (apiVersion changed only)', async () => {
  const f = withCrd('None');
  f.validating.push(
    configuration('ValidatingWebhookConfiguration', 'v', [
      hook(srv.port, srv.ca.certPem, '/allow', { rules: rulesFor('v2') }),
    ])
  );
  const plugin = ValidatingAdmissionWebhook(f.deps);
  assert.equal(await plugin.mayValidate!(v1Create()), true);
  const calls = await callsDuring('/allow', () => plugin.validate!(v1Create(), recordingContext()));
  assert.equal(calls.length, 1);
  const request = requestOf(calls[0]!);
  assert.deepEqual(request['kind'], { group: 'example.com', version: 'v2', kind: 'Widget' });
  assert.deepEqual(request['resource'], {
    group: 'example.com',
    version: 'v2',
    resource: 'widgets',
  });
  assert.deepEqual(request['requestKind'], { group: 'example.com', version: 'v1', kind: 'Widget' });
  const object = request['object'] as { apiVersion: string; spec: unknown };
  assert.equal(object.apiVersion, 'example.com/v2');
  assert.deepEqual(object.spec, { size: 3 });
});

test('matchPolicy Equivalent, CRD conversion Webhook: the object is converted by the CRD conversion webhook before the admission webhook sees it', async () => {
  const f = withCrd('Webhook');
  f.validating.push(
    configuration('ValidatingWebhookConfiguration', 'v', [
      hook(srv.port, srv.ca.certPem, '/allow', { rules: rulesFor('v2') }),
    ])
  );
  const plugin = ValidatingAdmissionWebhook(f.deps);
  const conversions = srv.callsTo('/convert').length;
  const calls = await callsDuring('/allow', () => plugin.validate!(v1Create(), recordingContext()));
  assert.equal(calls.length, 1);
  assert.equal(srv.callsTo('/convert').length, conversions + 1);
  const object = requestOf(calls[0]!)['object'] as {
    apiVersion: string;
    metadata: { labels?: Record<string, string> };
    spec: unknown;
  };
  assert.equal(object.apiVersion, 'example.com/v2');
  assert.deepEqual(object.spec, { replicas: 3 });
  assert.equal(object.metadata.labels?.['converted-to'], 'v2');
});

test('matchPolicy Equivalent, CRD: a mutation made at v2 comes back converted to the v1 of the request', async () => {
  const f = withCrd('Webhook');
  f.mutating.push(
    configuration('MutatingWebhookConfiguration', 'm', [
      hook(srv.port, srv.ca.certPem, '/mutate', { rules: rulesFor('v2') }),
    ])
  );
  const plugin = MutatingAdmissionWebhook(f.deps);
  const req = v1Create();
  const calls = await callsDuring('/mutate', () => plugin.admit!(req, recordingContext()));
  assert.equal(calls.length, 1);
  assert.equal(req.object?.apiVersion, 'example.com/v1');
  assert.deepEqual(req.object?.['spec'], { size: 3 });
  assert.equal(req.object?.metadata.labels?.['mutated'], 'by-webhook');
  assert.equal(req.object?.metadata.labels?.['converted-to'], 'v1');
});

test('matchPolicy Equivalent, CRD: not called under Exact, nor for a version the CRD does not serve, nor for a subresource the matched version lacks', async () => {
  const cases: [string, Record<string, unknown>, AdmissionRequest][] = [
    ['Exact', { matchPolicy: 'Exact', rules: rulesFor('v2') }, v1Create()],
    ['unserved v3', { rules: rulesFor('v3') }, v1Create()],
    [
      'status of v1 has no v1 rule; v2/status exists but the request is widgets/scale',
      { rules: rulesFor('v2', 'widgets/scale') },
      { ...v1Create(), subResource: 'scale' },
    ],
  ];
  for (const [name, over, req] of cases) {
    const f = withCrd('None');
    f.validating.push(
      configuration('ValidatingWebhookConfiguration', 'v', [
        hook(srv.port, srv.ca.certPem, '/allow', over),
      ])
    );
    const plugin = ValidatingAdmissionWebhook(f.deps);
    const calls = await callsDuring('/allow', () => plugin.validate!(req, recordingContext()));
    assert.equal(calls.length, 0, name);
  }
});

test('matchPolicy Equivalent, CRD: a ValidatingAdmissionPolicy for v2 widgets evaluates a v1 write converted to v2', async () => {
  const f = withCrd('Webhook');
  const policies: ApiObject[] = [
    {
      apiVersion: 'admissionregistration.orch.io/v1',
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name: 'replicas', uid: 'p', resourceVersion: '1' },
      spec: {
        failurePolicy: 'Fail',
        matchConstraints: { matchPolicy: 'Equivalent', resourceRules: rulesFor('v2') },
        validations: [
          {
            expression: "object.spec.replicas < 3 && request.kind.version == 'v2'",
            message: 'too many',
          },
        ],
      },
    },
  ];
  const bindings: ApiObject[] = [
    {
      apiVersion: 'admissionregistration.orch.io/v1',
      kind: 'ValidatingAdmissionPolicyBinding',
      metadata: { name: 'replicas', uid: 'b', resourceVersion: '1' },
      spec: { policyName: 'replicas', validationActions: ['Deny'] },
    },
  ];
  const forResource = f.deps.listers.forResource.bind(f.deps.listers);
  f.deps.listers.forResource = (group, resource) => {
    if (resource === 'validatingadmissionpolicies') return Promise.resolve(listOf(policies));
    if (resource === 'validatingadmissionpolicybindings') return Promise.resolve(listOf(bindings));
    return forResource(group, resource);
  };
  const plugin = ValidatingAdmissionPolicy(f.deps);
  await assert.rejects(plugin.validate!(v1Create(), recordingContext()), /too many/);
});

const listOf = (objects: ApiObject[]) => ({
  list: () => objects,
  get: (_ns: string, name: string) => objects.find((o) => o.metadata.name === name),
});
