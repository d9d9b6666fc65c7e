// Admission end to end with kubectl: a real HTTPS webhook backend on loopback, named
// by webhook configurations created with kubectl, and a ValidatingAdmissionPolicy. kubectl shows
// a webhook's denial message, a webhook's warning line, the label a mutating webhook added, the
// refusal of a server-side dry run by a webhook with side effects, and a CEL rule refusing a
// ConfigMap. On the shared suite: every configuration selects this file's namespace (by its label)
// or its own objects (by theirs), and all of them are deleted at the end.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Etcd3 } from 'etcd3';
import { reviewResponse, sharedSuite, startWebhookServer, waitFor } from '@orch/testing';
import type { Suite, WebhookCall, WebhookServer } from '@orch/testing';
import { runKubectl } from './run-kubectl.js';

let suite: Suite;
let hooks: WebhookServer;
const dir = mkdtempSync(join(tmpdir(), 'orch-admission-'));
const ns = 'admission-e2e';
const admin = (args: string[], input?: string) =>
  runKubectl(suite.kubeconfigs[0]!, join(dir, 'cache'), args, input);

interface Reviewed {
  request?: { object?: { metadata?: { name?: string; labels?: Record<string, string> } } };
}
const nameOf = (call: WebhookCall): string =>
  (call.body as Reviewed).request?.object?.metadata?.name ?? '';

/** The backend: one path per webhook. */
function answer(call: WebhookCall) {
  const name = nameOf(call);
  switch (call.path) {
    case '/mutate': {
      const labels = (call.body as Reviewed).request?.object?.metadata?.labels;
      const patch = labels
        ? [{ op: 'add', path: '/metadata/labels/admission.e2e~1mutated', value: 'true' }]
        : [{ op: 'add', path: '/metadata/labels', value: { 'admission.e2e/mutated': 'true' } }];
      return { body: reviewResponse(call.body, { allowed: true, patch }) };
    }
    case '/deny':
      return {
        body: reviewResponse(
          call.body,
          name.startsWith('deny-')
            ? { allowed: false, status: { message: 'names starting with deny- are refused' } }
            : { allowed: true }
        ),
      };
    case '/warn':
      return {
        body: reviewResponse(call.body, {
          allowed: true,
          ...(name.startsWith('warn-') ? { warnings: [`configmap ${name} is watched`] } : {}),
        }),
      };
    default:
      return { body: reviewResponse(call.body, { allowed: true }) };
  }
}

const webhook = (name: string, path: string, extra = '') =>
  `- name: ${name}
  clientConfig:
    url: ${hooks.url(path)}
    caBundle: ${hooks.caBundle}
  rules:
  - operations: ["CREATE"]
    apiGroups: [""]
    apiVersions: ["v1"]
    resources: ["configmaps"]
  namespaceSelector:
    matchLabels:
      e2e: admission
  sideEffects: None
  admissionReviewVersions: ["v1"]
${extra}`;

before(async () => {
  suite = await sharedSuite();
  hooks = await startWebhookServer(answer);
  const created = await admin(
    ['create', '-f', '-'],
    `apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ${ns}\n  labels:\n    e2e: admission\n`
  );
  assert.equal(created.code, 0, created.stderr);
  const configs = await admin(
    ['create', '-f', '-'],
    `apiVersion: admissionregistration.orch.io/v1
kind: MutatingWebhookConfiguration
metadata:
  name: e2e-mutate
webhooks:
${webhook('mutate.e2e.orch.io', '/mutate')}---
apiVersion: admissionregistration.orch.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: e2e-validate
webhooks:
${webhook('deny.e2e.orch.io', '/deny')}${webhook('warn.e2e.orch.io', '/warn')}`
  );
  assert.equal(configs.code, 0, configs.stderr);
  // The admission service watches the configurations: wait until a create is mutated.
  await waitFor(
    'the mutating webhook configuration is in effect',
    async () => {
      await admin(['-n', ns, 'delete', 'configmap', 'probe', '--ignore-not-found']);
      const r = await admin(['-n', ns, 'create', 'configmap', 'probe']);
      return r.code === 0 && hooks.callsTo('/mutate').some((c) => nameOf(c) === 'probe');
    },
    { timeoutMs: 20_000, intervalMs: 300 }
  );
});

after(async () => {
  if (suite) {
    const removed = await admin([
      'delete',
      '--ignore-not-found',
      'mutatingwebhookconfiguration/e2e-mutate',
      'validatingwebhookconfiguration/e2e-validate',
      'validatingwebhookconfiguration/e2e-side-effects',
      'validatingadmissionpolicy/no-forbidden-key',
      'validatingadmissionpolicybinding/no-forbidden-key',
      `namespace/${ns}`,
      '--wait=false',
    ]);
    assert.equal(removed.code, 0, removed.stderr);
    await suite.stop();
  }
  await hooks?.stop();
});

test('kubectl: a label added by a mutating webhook is stored', async () => {
  const r = await admin(['-n', ns, 'create', 'configmap', 'plain', '--from-literal=a=b']);
  assert.equal(r.code, 0, r.stderr);
  const got = await admin([
    '-n',
    ns,
    'get',
    'configmap',
    'plain',
    '-o',
    'jsonpath={.metadata.labels.admission\\.e2e/mutated}',
  ]);
  assert.equal(got.code, 0, got.stderr);
  assert.equal(got.stdout, 'true');
});

test("kubectl: a validating webhook's denial message reaches the user, nothing is stored", async () => {
  const r = await admin(['-n', ns, 'create', 'configmap', 'deny-me']);
  assert.notEqual(r.code, 0);
  assert.match(
    r.stderr,
    /admission webhook "deny\.e2e\.orch\.io" denied the request: names starting with deny- are refused/
  );
  const got = await admin(['-n', ns, 'get', 'configmap', 'deny-me']);
  assert.notEqual(got.code, 0);
  assert.match(got.stderr, /not found/);
});

test("kubectl: a webhook's warning is printed as a Warning line", async () => {
  const r = await admin(['-n', ns, 'create', 'configmap', 'warn-me']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /^Warning: configmap warn-me is watched$/m);
});

test('kubectl: a server-side dry run is refused by a matching webhook with side effects', async () => {
  // v1 refuses sideEffects Some on create (the 1.22 row): a configuration stored before, under
  // v1beta1, still carries it. Such an object is written to etcd as that release left it.
  const etcd = new Etcd3({ hosts: suite.etcd.endpoint });
  try {
    const stored = {
      apiVersion: 'admissionregistration.orch.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: {
        name: 'e2e-side-effects',
        uid: '6d1c0f43-3a39-4b5c-9a57-2a4f6f0d7e11',
        creationTimestamp: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
        generation: 1,
      },
      webhooks: [
        {
          name: 'side-effects.e2e.orch.io',
          clientConfig: { url: hooks.url('/side-effects'), caBundle: hooks.caBundle },
          rules: [
            {
              operations: ['CREATE'],
              apiGroups: [''],
              apiVersions: ['v1'],
              resources: ['configmaps'],
              scope: '*',
            },
          ],
          failurePolicy: 'Fail',
          matchPolicy: 'Equivalent',
          namespaceSelector: {},
          objectSelector: { matchLabels: { 'side-effects': 'yes' } },
          sideEffects: 'Some',
          timeoutSeconds: 10,
          admissionReviewVersions: ['v1'],
        },
      ],
    };
    await etcd
      .put(
        '/registry/admissionregistration.orch.io/validatingwebhookconfigurations/e2e-side-effects'
      )
      .value(JSON.stringify(stored));
  } finally {
    etcd.close();
  }
  const cm = (name: string) =>
    `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: ${ns}\n  labels:\n    side-effects: "yes"\n`;
  await waitFor(
    'the side-effecting webhook is called',
    async () => {
      const name = `se-${Math.random().toString(36).slice(2, 8)}`;
      await admin(['create', '-f', '-'], cm(name));
      return hooks.callsTo('/side-effects').some((c) => nameOf(c) === name);
    },
    { timeoutMs: 20_000, intervalMs: 300 }
  );
  const dry = await admin(['create', '--dry-run=server', '-f', '-'], cm('se-dry'));
  assert.notEqual(dry.code, 0);
  assert.match(dry.stderr, /side-effects\.e2e\.orch\.io.*dry ?run/i);
  assert.ok(!hooks.callsTo('/side-effects').some((c) => nameOf(c) === 'se-dry'));
});

test('kubectl: a ValidatingAdmissionPolicy refuses a ConfigMap by a CEL rule', async () => {
  const policy = await admin(
    ['apply', '-f', '-'],
    `apiVersion: admissionregistration.orch.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: no-forbidden-key
spec:
  failurePolicy: Fail
  matchConstraints:
    resourceRules:
    - apiGroups: [""]
      apiVersions: ["v1"]
      operations: ["CREATE", "UPDATE"]
      resources: ["configmaps"]
  validations:
  - expression: "!has(object.data) || !('forbidden' in object.data)"
    message: ConfigMaps may not carry the key forbidden
---
apiVersion: admissionregistration.orch.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: no-forbidden-key
spec:
  policyName: no-forbidden-key
  validationActions: [Deny]
  matchResources:
    namespaceSelector:
      matchLabels:
        e2e: admission
`
  );
  assert.equal(policy.code, 0, policy.stderr);
  let refused = { code: 0, stdout: '', stderr: '' };
  await waitFor(
    'the policy refuses',
    async () => {
      refused = await admin(['-n', ns, 'create', 'configmap', 'bad', '--from-literal=forbidden=1']);
      if (refused.code === 0) await admin(['-n', ns, 'delete', 'configmap', 'bad']);
      return refused.code !== 0;
    },
    { timeoutMs: 20_000, intervalMs: 300 }
  );
  assert.match(
    refused.stderr,
    /ValidatingAdmissionPolicy 'no-forbidden-key' with binding 'no-forbidden-key' denied request: ConfigMaps may not carry the key forbidden/
  );
  const ok = await admin(['-n', ns, 'create', 'configmap', 'good', '--from-literal=allowed=1']);
  assert.equal(ok.code, 0, ok.stderr);
});
