// admissionregistration.orch.io/v1 through a real suite (etcd, NATS, storage, authorizer,
// gateway): served, defaulted and validated as upstream's v1; the 1.22 row of the spec's
// "Removed API versions by release" table; kubectl get, apply -f and -o yaml.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSuite } from '@orch/testing';
import type { Suite } from '@orch/testing';

type Json = Record<string, any>;
let suite: Suite;
const group = '/apis/admissionregistration.orch.io';
const v1 = `${group}/v1`;
const cacheDir = mkdtempSync(join(tmpdir(), 'orch-admreg-kubectl-'));

const kubectl = (args: string[], input?: string) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    const child = execFile(
      'kubectl',
      [`--kubeconfig=${suite.kubeconfigs[0]!}`, `--cache-dir=${cacheDir}`, ...args],
      { timeout: 30_000 },
      (err, stdout, stderr) =>
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr })
    );
    if (input !== undefined) child.stdin?.end(input);
  });

const webhook = (extra: Json = {}): Json => ({
  name: 'pods.policy.example.com',
  clientConfig: { service: { namespace: 'policy', name: 'webhook' } },
  rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
  sideEffects: 'None',
  admissionReviewVersions: ['v1'],
  ...extra,
});
const configOf = (kind: string, name: string, webhooks: Json[]): Json => ({
  apiVersion: 'admissionregistration.orch.io/v1',
  kind,
  metadata: { name },
  webhooks,
});
const causes = (body: unknown): string[] =>
  ((body as Json)['details']?.['causes'] ?? []).map((c: Json) => `${c.field}: ${c.reason}`);

before(async () => {
  suite = await startSuite();
});

after(async () => {
  await suite.stop();
});

test('Removed API versions by release, row 1.22 (MutatingWebhookConfiguration, ValidatingWebhookConfiguration admissionregistration.orch.io/v1beta1): v1beta1 is 404, discovery lists only v1', async () => {
  for (const r of ['mutatingwebhookconfigurations', 'validatingwebhookconfigurations']) {
    assert.equal((await suite.request(0, 'GET', `${group}/v1beta1/${r}`)).status, 404, r);
    const post = await suite.request(
      0,
      'POST',
      `${group}/v1beta1/${r}`,
      configOf('ValidatingWebhookConfiguration', 'old', [webhook()])
    );
    assert.equal(post.status, 404, r);
  }
  assert.equal((await suite.request(0, 'GET', `${group}/v1beta1`)).status, 404);
  const g = (await suite.request(0, 'GET', group)).body as Json;
  assert.deepEqual(g['versions'], [
    { groupVersion: 'admissionregistration.orch.io/v1', version: 'v1' },
  ]);
  const resources = ((await suite.request(0, 'GET', v1)).body as Json)['resources'] as Json[];
  assert.deepEqual(resources.map((r) => r['name']).sort(), [
    'mutatingwebhookconfigurations',
    'validatingadmissionpolicies',
    'validatingadmissionpolicies/status',
    'validatingadmissionpolicybindings',
    'validatingwebhookconfigurations',
  ]);
  assert.ok(resources.every((r) => r['namespaced'] === false));
});

test('Removed API versions by release, row 1.22, notable changes: v1 defaults failurePolicy Fail, matchPolicy Equivalent, timeoutSeconds 10; sideEffects and admissionReviewVersions required; names unique', async () => {
  const created = await suite.request(
    0,
    'POST',
    `${v1}/mutatingwebhookconfigurations`,
    configOf('MutatingWebhookConfiguration', 'defaults', [webhook()])
  );
  assert.equal(created.status, 201, created.text);
  const h = (created.body as Json)['webhooks'][0];
  assert.equal(h.failurePolicy, 'Fail');
  assert.equal(h.matchPolicy, 'Equivalent');
  assert.equal(h.timeoutSeconds, 10);
  assert.deepEqual(h.namespaceSelector, {});
  assert.deepEqual(h.objectSelector, {});
  assert.equal(h.reinvocationPolicy, 'Never');
  assert.equal(h.rules[0].scope, '*');
  assert.equal(h.clientConfig.service.port, 443);
  const read = await suite.request(0, 'GET', `${v1}/mutatingwebhookconfigurations/defaults`);
  assert.deepEqual((read.body as Json)['webhooks'], (created.body as Json)['webhooks']);

  const v = await suite.request(
    0,
    'POST',
    `${v1}/validatingwebhookconfigurations`,
    configOf('ValidatingWebhookConfiguration', 'vdefaults', [webhook()])
  );
  assert.equal(v.status, 201, v.text);
  assert.equal('reinvocationPolicy' in (v.body as Json)['webhooks'][0], false);

  const { sideEffects: _s, admissionReviewVersions: _a, ...bare } = webhook();
  const missing = await suite.request(
    0,
    'POST',
    `${v1}/validatingwebhookconfigurations`,
    configOf('ValidatingWebhookConfiguration', 'missing', [bare, webhook()])
  );
  assert.equal(missing.status, 422);
  assert.equal((missing.body as Json)['reason'], 'Invalid');
  assert.deepEqual(causes(missing.body), [
    'webhooks[0].sideEffects: FieldValueRequired',
    'webhooks[0].admissionReviewVersions: FieldValueRequired',
    'webhooks[1].name: FieldValueDuplicate',
  ]);
  const some = await suite.request(
    0,
    'POST',
    `${v1}/validatingwebhookconfigurations`,
    configOf('ValidatingWebhookConfiguration', 'some', [webhook({ sideEffects: 'Some' })])
  );
  assert.equal(some.status, 422);
  assert.deepEqual(causes(some.body), ['webhooks[0].sideEffects: FieldValueNotSupported']);
  for (const name of ['missing', 'some'])
    assert.equal(
      (await suite.request(0, 'GET', `${v1}/validatingwebhookconfigurations/${name}`)).status,
      404,
      `${name} was not stored`
    );
});

test('Webhook configuration rows through the API: a bad url and a bad timeout are 422 Invalid naming the fields; an update is validated too and changes nothing', async () => {
  const bad = await suite.request(
    0,
    'POST',
    `${v1}/validatingwebhookconfigurations`,
    configOf('ValidatingWebhookConfiguration', 'bad', [
      webhook({ clientConfig: { url: 'http://hooks.example.com/x?q=1' }, timeoutSeconds: 31 }),
    ])
  );
  assert.equal(bad.status, 422);
  assert.deepEqual(causes(bad.body), [
    'webhooks[0].timeoutSeconds: FieldValueInvalid',
    'webhooks[0].clientConfig.url: FieldValueInvalid',
    'webhooks[0].clientConfig.url: FieldValueInvalid',
  ]);
  assert.match((bad.body as Json)['message'], /webhooks\[0\]\.clientConfig\.url/);

  const path = `${v1}/validatingwebhookconfigurations/vdefaults`;
  const before = (await suite.request(0, 'GET', path)).body as Json;
  const upd = structuredClone(before);
  upd['webhooks'][0].rules[0].operations = ['*', 'CREATE'];
  const put = await suite.request(0, 'PUT', path, upd);
  assert.equal(put.status, 422);
  assert.deepEqual(causes(put.body), ['webhooks[0].rules[0].operations: FieldValueInvalid']);
  const after = (await suite.request(0, 'GET', path)).body as Json;
  assert.equal(after['metadata']['resourceVersion'], before['metadata']['resourceVersion']);
});

test('ValidatingAdmissionPolicy: defaults, validation errors, the status subresource; binding validation', async () => {
  const policy = {
    apiVersion: 'admissionregistration.orch.io/v1',
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name: 'replicas.example.com' },
    spec: {
      paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
      matchConstraints: {
        resourceRules: [
          {
            operations: ['CREATE', 'UPDATE'],
            apiGroups: ['apps'],
            apiVersions: ['v1'],
            resources: ['deployments'],
          },
        ],
      },
      validations: [{ expression: 'object.spec.replicas <= 5', reason: 'Invalid' }],
    },
    status: { observedGeneration: 7 },
  };
  const created = await suite.request(0, 'POST', `${v1}/validatingadmissionpolicies`, policy);
  assert.equal(created.status, 201, created.text);
  const spec = (created.body as Json)['spec'];
  assert.equal(spec.failurePolicy, 'Fail');
  assert.equal(spec.matchConstraints.matchPolicy, 'Equivalent');
  assert.deepEqual(spec.matchConstraints.namespaceSelector, {});
  assert.deepEqual(spec.matchConstraints.objectSelector, {});
  assert.equal(spec.matchConstraints.resourceRules[0].scope, '*');
  assert.deepEqual((created.body as Json)['status'], {}, 'status is reset on create');

  const path = `${v1}/validatingadmissionpolicies/replicas.example.com`;
  const withStatus = structuredClone(created.body as Json);
  withStatus['status'] = {
    observedGeneration: 1,
    typeChecking: {
      expressionWarnings: [{ fieldRef: 'spec.validations[0].expression', warning: 'w' }],
    },
  };
  const st = await suite.request(0, 'PUT', `${path}/status`, withStatus);
  assert.equal(st.status, 200, st.text);
  assert.equal((st.body as Json)['status']['typeChecking']['expressionWarnings'][0].warning, 'w');
  const badStatus = structuredClone(st.body as Json);
  badStatus['status']['typeChecking']['expressionWarnings'][0].fieldRef = '';
  const bs = await suite.request(0, 'PUT', `${path}/status`, badStatus);
  assert.equal(bs.status, 422);
  assert.deepEqual(causes(bs.body), [
    'status.typeChecking.expressionWarnings[0].fieldRef: FieldValueRequired',
  ]);

  const bad = await suite.request(0, 'POST', `${v1}/validatingadmissionpolicies`, {
    ...policy,
    metadata: { name: 'bad.example.com' },
    spec: {
      paramKind: { kind: 'ConfigMap' },
      matchConstraints: {},
      validations: [{ expression: 'true', message: 'a\nb', reason: 'Teapot' }],
      variables: [{ name: 'not valid', expression: 'object.metadata.name' }],
    },
  });
  assert.equal(bad.status, 422);
  assert.deepEqual(causes(bad.body), [
    'spec.paramKind.apiVersion: FieldValueRequired',
    'spec.matchConstraints.resourceRules: FieldValueRequired',
    'spec.variables[0].name: FieldValueInvalid',
    'spec.validations[0].reason: FieldValueNotSupported',
    'spec.validations[0].message: FieldValueInvalid',
  ]);

  const b = await suite.request(0, 'POST', `${v1}/validatingadmissionpolicybindings`, {
    apiVersion: 'admissionregistration.orch.io/v1',
    kind: 'ValidatingAdmissionPolicyBinding',
    metadata: { name: 'replicas-prod' },
    spec: {
      policyName: 'replicas.example.com',
      paramRef: { name: 'limits', namespace: 'default' },
      validationActions: ['Deny', 'Warn'],
      matchResources: {},
    },
  });
  assert.equal(b.status, 422);
  assert.deepEqual(causes(b.body), [
    'spec.paramRef.parameterNotFoundAction: FieldValueRequired',
    'spec.validationActions: FieldValueInvalid',
  ]);
  const ok = await suite.request(0, 'POST', `${v1}/validatingadmissionpolicybindings`, {
    apiVersion: 'admissionregistration.orch.io/v1',
    kind: 'ValidatingAdmissionPolicyBinding',
    metadata: { name: 'replicas-prod' },
    spec: {
      policyName: 'replicas.example.com',
      paramRef: { name: 'limits', namespace: 'default', parameterNotFoundAction: 'Deny' },
      validationActions: ['Deny', 'Audit'],
      matchResources: {},
    },
  });
  assert.equal(ok.status, 201, ok.text);
  assert.equal((ok.body as Json)['spec']['matchResources']['matchPolicy'], 'Equivalent');
});

test('tables: webhook configurations NAME, WEBHOOKS, AGE; policies NAME, VALIDATIONS, PARAMKIND, AGE; bindings NAME, POLICYNAME, PARAMREF, AGE', async () => {
  const accept = { Accept: 'application/json;as=Table;g=meta.orch.io;v=v1' };
  const t = async (r: string) =>
    (await suite.request(0, 'GET', `${v1}/${r}`, undefined, accept)).body as Json;
  const hooks = await t('mutatingwebhookconfigurations');
  assert.deepEqual(
    hooks['columnDefinitions'].map((c: Json) => c.name),
    ['Name', 'Webhooks', 'Age']
  );
  assert.deepEqual(hooks['rows'][0].cells.slice(0, 2), ['defaults', 1]);
  const policies = await t('validatingadmissionpolicies');
  assert.deepEqual(
    policies['columnDefinitions'].map((c: Json) => c.name),
    ['Name', 'Validations', 'ParamKind', 'Age']
  );
  assert.deepEqual(policies['rows'][0].cells.slice(0, 3), [
    'replicas.example.com',
    1,
    'v1/ConfigMap',
  ]);
  const bindings = await t('validatingadmissionpolicybindings');
  assert.deepEqual(
    bindings['columnDefinitions'].map((c: Json) => c.name),
    ['Name', 'PolicyName', 'ParamRef', 'Age']
  );
  assert.deepEqual(bindings['rows'][0].cells.slice(0, 3), [
    'replicas-prod',
    'replicas.example.com',
    'default/limits',
  ]);
});

test('kubectl: apply -f, get (table), get -o yaml, apply of an invalid object fails naming the field', async () => {
  const yaml = [
    'apiVersion: admissionregistration.orch.io/v1',
    'kind: ValidatingWebhookConfiguration',
    'metadata:',
    '  name: kubectl-hooks',
    'webhooks:',
    '- name: deployments.policy.example.com',
    '  clientConfig:',
    '    url: https://hooks.example.com:8443/validate',
    '  rules:',
    '  - operations: ["CREATE", "UPDATE"]',
    '    apiGroups: ["apps"]',
    '    apiVersions: ["v1"]',
    '    resources: ["deployments"]',
    '  sideEffects: None',
    '  admissionReviewVersions: ["v1"]',
    '',
  ].join('\n');
  const applied = await kubectl(['apply', '-f', '-'], yaml);
  assert.equal(applied.code, 0, applied.stderr);
  assert.match(
    applied.stdout,
    /validatingwebhookconfiguration\.admissionregistration\.orch\.io\/kubectl-hooks created/
  );
  const again = await kubectl(['apply', '-f', '-'], yaml);
  assert.equal(again.code, 0, again.stderr);
  // kubectl sends a merge patch of the list without the server's defaults ("configured"); the
  // defaults fill it in again, so the object does not change and its generation stays 1.
  assert.match(again.stdout, /kubectl-hooks (unchanged|configured)/);
  const gen = await kubectl([
    'get',
    'validatingwebhookconfiguration',
    'kubectl-hooks',
    '-o',
    'jsonpath={.metadata.generation}',
  ]);
  assert.equal(gen.stdout, '1');
  const get = await kubectl(['get', 'validatingwebhookconfigurations']);
  assert.equal(get.code, 0, get.stderr);
  assert.match(get.stdout, /^NAME\s+WEBHOOKS\s+AGE/);
  assert.match(get.stdout, /kubectl-hooks\s+1\s+/);
  const y = await kubectl(['get', 'validatingwebhookconfiguration', 'kubectl-hooks', '-o', 'yaml']);
  assert.equal(y.code, 0, y.stderr);
  assert.match(y.stdout, /failurePolicy: Fail/);
  assert.match(y.stdout, /timeoutSeconds: 10/);
  assert.match(y.stdout, /matchPolicy: Equivalent/);
  const bad = await kubectl(['apply', '-f', '-'], yaml.replace('https://hooks', 'http://hooks'));
  assert.notEqual(bad.code, 0);
  assert.match(bad.stderr, /webhooks\[0\]\.clientConfig\.url/);
  assert.match(bad.stderr, /'https' is the only allowed URL scheme/);
});

test('expressions are compiled on write (CEL): a webhook matchCondition and policy expressions that do not compile are 422 naming them, nothing stored', async () => {
  const hookBad = await suite.request(
    0,
    'POST',
    `${v1}/validatingwebhookconfigurations`,
    configOf('ValidatingWebhookConfiguration', 'cel-bad', [
      webhook({
        matchConditions: [{ name: 'typo', expression: 'request.usrInfo.username == "a"' }],
      }),
    ])
  );
  assert.equal(hookBad.status, 422, hookBad.text);
  assert.deepEqual(causes(hookBad.body), [
    'webhooks[0].matchConditions[0].expression: FieldValueInvalid',
  ]);
  assert.match((hookBad.body as Json)['message'], /usrInfo/);
  const policyBad = await suite.request(0, 'POST', `${v1}/validatingadmissionpolicies`, {
    apiVersion: 'admissionregistration.orch.io/v1',
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name: 'cel-bad.example.com' },
    spec: {
      matchConstraints: {
        resourceRules: [
          {
            operations: ['CREATE'],
            apiGroups: [''],
            apiVersions: ['v1'],
            resources: ['configmaps'],
          },
        ],
      },
      validations: [
        { expression: 'params.max > 1' },
        { expression: 'object.metadata.name == "x"', messageExpression: '1' },
      ],
    },
  });
  assert.equal(policyBad.status, 422, policyBad.text);
  assert.deepEqual(causes(policyBad.body), [
    'spec.validations[0].expression: FieldValueInvalid',
    'spec.validations[1].messageExpression: FieldValueInvalid',
  ]);
  for (const path of [
    'validatingwebhookconfigurations/cel-bad',
    'validatingadmissionpolicies/cel-bad.example.com',
  ])
    assert.equal((await suite.request(0, 'GET', `${v1}/${path}`)).status, 404, path);
});
