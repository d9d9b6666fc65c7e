// The validation tables of admissionregistration.orch.io/v1 as pure-function tests: the rows of
// the spec's "Webhook configuration" table and upstream's pkg/apis/admissionregistration/
// validation cases. Each case names the row or the upstream rule it checks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createCertificateAuthority } from '@orch/component-base/pki';
import type { FieldError } from '@orch/apimachinery/errors';
import type { ApiObject } from '@orch/apimachinery/meta';
import {
  validateWebhookConfiguration,
  validateFullyQualifiedName,
  webhookUpdateOptions,
  createWebhookOptions,
} from './validate-webhook-configuration.js';
import {
  validateValidatingAdmissionPolicy,
  validateValidatingAdmissionPolicyBinding,
  validateValidatingAdmissionPolicyStatus,
  validateValidatingAdmissionPolicyUpdate,
} from './validate-validating-admission-policy.js';
import { validateResources } from './validate-rules.js';
import type { ExpressionCheck } from './validate-rules.js';
import { newPath } from '@orch/apimachinery/errors';
import { builtinResources } from '@orch/apimachinery/registry';
import { realisticObjects } from '@orch/apimachinery/testdata';
import { providedStrategy } from '../strategy-test-kit.js';
import { admissionRegistrationProvider } from './rest-storage-provider.js';

const hook = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  name: 'pods.policy.example.com',
  clientConfig: { service: { namespace: 'policy', name: 'webhook', port: 443 } },
  rules: [
    {
      operations: ['CREATE'],
      apiGroups: [''],
      apiVersions: ['v1'],
      resources: ['pods'],
      scope: '*',
    },
  ],
  failurePolicy: 'Fail',
  matchPolicy: 'Equivalent',
  namespaceSelector: {},
  objectSelector: {},
  sideEffects: 'None',
  timeoutSeconds: 10,
  admissionReviewVersions: ['v1'],
  ...extra,
});
const config = (...webhooks: Record<string, unknown>[]): ApiObject => ({
  metadata: { name: 'policy' },
  webhooks,
});
const errsOf = (hooks: Record<string, unknown>[], mutating = false): FieldError[] =>
  validateWebhookConfiguration(config(...hooks), mutating);
/** `field: type` of each error, for compact assertions. */
const fields = (errs: FieldError[]): string[] => errs.map((e) => `${e.field}: ${e.type}`);
const isApiObject = (o: unknown): o is ApiObject =>
  typeof o === 'object' &&
  o !== null &&
  'metadata' in o &&
  typeof o.metadata === 'object' &&
  o.metadata !== null;

test('a valid webhook configuration (both kinds) has no errors', () => {
  assert.deepEqual(errsOf([hook()]), []);
  assert.deepEqual(errsOf([hook({ reinvocationPolicy: 'IfNeeded' })], true), []);
});

test('Webhook configuration row "name": unique among the webhooks of one configuration; fully qualified', () => {
  assert.deepEqual(fields(errsOf([hook(), hook()])), ['webhooks[1].name: FieldValueDuplicate']);
  assert.deepEqual(fields(errsOf([hook({ name: 'policy.example' })])), [
    'webhooks[0].name: FieldValueInvalid',
  ]);
  assert.match(
    errsOf([hook({ name: 'policy.example' })])[0]!.message,
    /at least three segments separated by dots/
  );
  assert.deepEqual(fields(errsOf([hook({ name: '' })])), ['webhooks[0].name: FieldValueRequired']);
  assert.deepEqual(fields(errsOf([hook({ name: 'Bad_Name.example.com' })])), [
    'webhooks[0].name: FieldValueInvalid',
  ]);
  assert.deepEqual(validateFullyQualifiedName('a.b.c', newPath('n')), []);
});

test('Webhook configuration row "rules[]": operations, apiGroups, apiVersions, scope', () => {
  const rule = (r: Record<string, unknown>) =>
    fields(
      errsOf([
        hook({
          rules: [
            {
              operations: ['CREATE'],
              apiGroups: [''],
              apiVersions: ['v1'],
              resources: ['pods'],
              ...r,
            },
          ],
        }),
      ])
    );
  for (const op of ['CREATE', 'UPDATE', 'DELETE', 'CONNECT', '*'])
    assert.deepEqual(rule({ operations: [op] }), [], op);
  assert.deepEqual(rule({ operations: ['PATCH'] }), [
    'webhooks[0].rules[0].operations[0]: FieldValueNotSupported',
  ]);
  assert.deepEqual(rule({ operations: [] }), [
    'webhooks[0].rules[0].operations: FieldValueRequired',
  ]);
  assert.deepEqual(rule({ operations: ['*', 'CREATE'] }), [
    'webhooks[0].rules[0].operations: FieldValueInvalid',
  ]);
  assert.deepEqual(rule({ apiGroups: [] }), ['webhooks[0].rules[0].apiGroups: FieldValueRequired']);
  assert.deepEqual(rule({ apiGroups: ['*', 'apps'] }), [
    'webhooks[0].rules[0].apiGroups: FieldValueInvalid',
  ]);
  assert.deepEqual(rule({ apiGroups: [''] }), [], 'the empty string is the core group');
  assert.deepEqual(rule({ apiVersions: [] }), [
    'webhooks[0].rules[0].apiVersions: FieldValueRequired',
  ]);
  assert.deepEqual(rule({ apiVersions: ['*', 'v1'] }), [
    'webhooks[0].rules[0].apiVersions: FieldValueInvalid',
  ]);
  assert.deepEqual(rule({ apiVersions: ['v1', ''] }), [
    'webhooks[0].rules[0].apiVersions[1]: FieldValueRequired',
  ]);
  for (const scope of ['Cluster', 'Namespaced', '*']) assert.deepEqual(rule({ scope }), [], scope);
  assert.deepEqual(rule({ scope: 'Global' }), [
    'webhooks[0].rules[0].scope: FieldValueNotSupported',
  ]);
  assert.deepEqual(rule({ resources: [] }), ['webhooks[0].rules[0].resources: FieldValueRequired']);
});

test('Webhook configuration row "rules[]" resources: *, */*, pods/*, */status and what they exclude', () => {
  const res = (...r: string[]) => fields(validateResources(r, newPath('resources')));
  for (const ok of [
    ['*'],
    ['*/*'],
    ['pods/*'],
    ['*/status'],
    ['*', '*/status'],
    ['pods', 'pods/*'],
    ['*', 'pods/*'],
  ])
    assert.deepEqual(res(...ok), [], ok.join(','));
  assert.deepEqual(res('*/*', 'pods'), ['resources: FieldValueInvalid']);
  assert.deepEqual(res('*', 'pods'), ['resources: FieldValueInvalid']);
  assert.deepEqual(res('pods/*', 'pods/log'), ['resources[1]: FieldValueInvalid']);
  assert.deepEqual(res('*/status', 'pods/status'), ['resources[1]: FieldValueInvalid']);
  assert.deepEqual(res('pods', ''), ['resources[1]: FieldValueRequired']);
  assert.match(
    validateResources(['pods/*', 'pods/log'], newPath('r'))[0]!.message,
    /if 'pods\/\*' is present, must not specify pods\/log/
  );
});

test('Webhook configuration rows "objectSelector" and "namespaceSelector": valid label selectors', () => {
  const bad = {
    matchLabels: { 'bad key!': 'v' },
    matchExpressions: [
      { key: 'a', operator: 'In', values: [] },
      { key: 'b', operator: 'Exists', values: ['x'] },
      { key: 'c', operator: 'Near', values: ['x'] },
      { key: 'd', operator: 'In', values: ['not a value'] },
    ],
  };
  assert.deepEqual(fields(errsOf([hook({ objectSelector: bad })])), [
    'webhooks[0].objectSelector.matchLabels: FieldValueInvalid',
    'webhooks[0].objectSelector.matchExpressions[0].values: FieldValueRequired',
    'webhooks[0].objectSelector.matchExpressions[1].values: FieldValueForbidden',
    'webhooks[0].objectSelector.matchExpressions[2].operator: FieldValueInvalid',
    'webhooks[0].objectSelector.matchExpressions[3].values[0]: FieldValueInvalid',
  ]);
  assert.deepEqual(
    fields(
      errsOf([hook({ namespaceSelector: { matchExpressions: [{ key: 'x', operator: 'NotIn' }] } })])
    ),
    ['webhooks[0].namespaceSelector.matchExpressions[0].values: FieldValueRequired']
  );
  assert.deepEqual(
    errsOf([
      hook({
        namespaceSelector: {
          matchLabels: { env: 'prod' },
          matchExpressions: [{ key: 'runlevel', operator: 'NotIn', values: ['0', '1'] }],
        },
      }),
    ]),
    []
  );
});

test('Webhook configuration row "matchPolicy": Exact or Equivalent; failurePolicy Ignore or Fail; reinvocationPolicy (mutating) Never or IfNeeded', () => {
  for (const matchPolicy of ['Exact', 'Equivalent'])
    assert.deepEqual(errsOf([hook({ matchPolicy })]), []);
  assert.deepEqual(fields(errsOf([hook({ matchPolicy: 'Loose' })])), [
    'webhooks[0].matchPolicy: FieldValueNotSupported',
  ]);
  for (const failurePolicy of ['Ignore', 'Fail'])
    assert.deepEqual(errsOf([hook({ failurePolicy })]), []);
  const fp = errsOf([hook({ failurePolicy: 'Retry' })]);
  assert.deepEqual(fields(fp), ['webhooks[0].failurePolicy: FieldValueNotSupported']);
  assert.equal(fp[0]!.message, 'supported values: "Fail", "Ignore"');
  for (const reinvocationPolicy of ['Never', 'IfNeeded'])
    assert.deepEqual(errsOf([hook({ reinvocationPolicy })], true), []);
  assert.deepEqual(fields(errsOf([hook({ reinvocationPolicy: 'Always' })], true)), [
    'webhooks[0].reinvocationPolicy: FieldValueNotSupported',
  ]);
});

test('Webhook configuration row "clientConfig.url": https://host:port/path, no user info, fragment or query', () => {
  const url = (u: string) => fields(errsOf([hook({ clientConfig: { url: u } })]));
  assert.deepEqual(url('https://hooks.example.com:8443/validate'), []);
  assert.deepEqual(url('https://10.0.0.1/x'), []);
  assert.deepEqual(url('http://hooks.example.com/validate'), [
    'webhooks[0].clientConfig.url: FieldValueInvalid',
  ]);
  assert.deepEqual(url('https://user:pw@hooks.example.com/'), [
    'webhooks[0].clientConfig.url: FieldValueInvalid',
  ]);
  assert.deepEqual(url('https://hooks.example.com/x#frag'), [
    'webhooks[0].clientConfig.url: FieldValueInvalid',
  ]);
  assert.deepEqual(url('https://hooks.example.com/x?a=b'), [
    'webhooks[0].clientConfig.url: FieldValueInvalid',
  ]);
  assert.deepEqual(url('hooks.example.com/x'), [
    'webhooks[0].clientConfig.url: FieldValueInvalid',
    'webhooks[0].clientConfig.url: FieldValueInvalid',
  ]);
  const msgs = errsOf([hook({ clientConfig: { url: 'http://u@h.example.com/?q=1#f' } })]).map(
    (e) => e.message
  );
  assert.ok(msgs.some((m) => m.includes("'https' is the only allowed URL scheme")));
  assert.ok(msgs.some((m) => m.includes('user information is not permitted')));
  assert.ok(msgs.some((m) => m.includes('query parameters are not permitted')));
  assert.ok(msgs.some((m) => m.includes('fragments are not permitted')));
});

test('Webhook configuration row "clientConfig.service": namespace and name required, port 1..65535, path segments; exactly one of url or service', () => {
  const svc = (s: Record<string, unknown>) =>
    fields(errsOf([hook({ clientConfig: { service: s } })]));
  assert.deepEqual(svc({ namespace: 'a', name: 'b', path: '/validate/pods', port: 8443 }), []);
  assert.deepEqual(svc({ name: 'b' }), [
    'webhooks[0].clientConfig.service.namespace: FieldValueRequired',
  ]);
  assert.deepEqual(svc({ namespace: 'a' }), [
    'webhooks[0].clientConfig.service.name: FieldValueRequired',
  ]);
  assert.deepEqual(svc({ namespace: 'a', name: 'b', port: 0 }), [
    'webhooks[0].clientConfig.service.port: FieldValueInvalid',
  ]);
  assert.deepEqual(svc({ namespace: 'a', name: 'b', port: 65536 }), [
    'webhooks[0].clientConfig.service.port: FieldValueInvalid',
  ]);
  assert.deepEqual(svc({ namespace: 'a', name: 'b', path: 'validate' }), [
    'webhooks[0].clientConfig.service.path: FieldValueInvalid',
  ]);
  assert.deepEqual(svc({ namespace: 'a', name: 'b', path: '/a//b' }), [
    'webhooks[0].clientConfig.service.path: FieldValueInvalid',
  ]);
  assert.deepEqual(svc({ namespace: 'a', name: 'b', path: '/Upper' }), [
    'webhooks[0].clientConfig.service.path: FieldValueInvalid',
  ]);
  assert.deepEqual(svc({ namespace: 'a', name: 'b', path: '/' }), []);
  assert.deepEqual(fields(errsOf([hook({ clientConfig: {} })])), [
    'webhooks[0].clientConfig: FieldValueRequired',
  ]);
  assert.deepEqual(
    fields(
      errsOf([
        hook({
          clientConfig: { url: 'https://h.example.com/', service: { namespace: 'a', name: 'b' } },
        }),
      ])
    ),
    ['webhooks[0].clientConfig: FieldValueRequired']
  );
});

test('Webhook configuration row "clientConfig.caBundle": PEM CA bundle, optional', async () => {
  const ca = await createCertificateAuthority({ commonName: 'webhook-ca' });
  const b64 = (s: string) => Buffer.from(s).toString('base64');
  const cc = (caBundle: string) => ({ clientConfig: { url: 'https://h.example.com/', caBundle } });
  assert.deepEqual(errsOf([hook(cc(b64(ca.certPem)))]), []);
  assert.deepEqual(errsOf([hook(cc(b64(ca.certPem + ca.certPem)))]), []);
  assert.deepEqual(fields(errsOf([hook(cc(b64('not pem')))])), [
    'webhooks[0].clientConfig.caBundle: FieldValueInvalid',
  ]);
  assert.deepEqual(fields(errsOf([hook(cc(b64(ca.keyPem)))])), [
    'webhooks[0].clientConfig.caBundle: FieldValueInvalid',
  ]);
  assert.deepEqual(
    fields(
      errsOf([hook(cc(b64('-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n')))])
    ),
    ['webhooks[0].clientConfig.caBundle: FieldValueInvalid']
  );
});

test('Webhook configuration row "admissionReviewVersions": required, no duplicates, at least one of v1, v1beta1', () => {
  const arv = (v: unknown) => fields(errsOf([hook({ admissionReviewVersions: v })]));
  assert.deepEqual(arv(['v1', 'v1beta1']), []);
  assert.deepEqual(arv(['v2', 'v1beta1']), [], 'unknown versions are allowed beside a known one');
  assert.deepEqual(arv(undefined), ['webhooks[0].admissionReviewVersions: FieldValueRequired']);
  assert.deepEqual(arv([]), ['webhooks[0].admissionReviewVersions: FieldValueRequired']);
  assert.deepEqual(arv(['v1', 'v1']), [
    'webhooks[0].admissionReviewVersions[1]: FieldValueInvalid',
  ]);
  assert.deepEqual(arv(['v2']), ['webhooks[0].admissionReviewVersions: FieldValueInvalid']);
  assert.deepEqual(arv(['V1']), [
    'webhooks[0].admissionReviewVersions[0]: FieldValueInvalid',
    'webhooks[0].admissionReviewVersions: FieldValueInvalid',
  ]);
});

test('Webhook configuration row "sideEffects": required in v1, None or NoneOnDryRun', () => {
  for (const sideEffects of ['None', 'NoneOnDryRun'])
    assert.deepEqual(errsOf([hook({ sideEffects })]), []);
  const { sideEffects: _s, ...without } = hook();
  assert.deepEqual(fields(errsOf([without])), ['webhooks[0].sideEffects: FieldValueRequired']);
  for (const sideEffects of ['Some', 'Unknown', ''])
    assert.deepEqual(
      fields(errsOf([hook({ sideEffects })])),
      ['webhooks[0].sideEffects: FieldValueNotSupported'],
      sideEffects
    );
});

test('Webhook configuration row "timeoutSeconds": 1..30', () => {
  for (const t of [1, 10, 30]) assert.deepEqual(errsOf([hook({ timeoutSeconds: t })]), []);
  for (const t of [0, 31, -1])
    assert.deepEqual(
      fields(errsOf([hook({ timeoutSeconds: t })])),
      ['webhooks[0].timeoutSeconds: FieldValueInvalid'],
      String(t)
    );
});

test('matchConditions: name required and qualified, unique, expression required, at most 64', () => {
  const mc = (m: unknown) => fields(errsOf([hook({ matchConditions: m })]));
  assert.deepEqual(mc([{ name: 'example.com/not-system', expression: 'true' }]), []);
  assert.deepEqual(mc([{ name: '', expression: 'true' }]), [
    'webhooks[0].matchConditions[0].name: FieldValueRequired',
  ]);
  assert.deepEqual(mc([{ name: '-bad', expression: 'true' }]), [
    'webhooks[0].matchConditions[0].name: FieldValueInvalid',
  ]);
  assert.deepEqual(mc([{ name: 'a', expression: '  ' }]), [
    'webhooks[0].matchConditions[0].expression: FieldValueRequired',
  ]);
  assert.deepEqual(
    mc([
      { name: 'a', expression: 'true' },
      { name: 'a', expression: 'false' },
    ]),
    ['webhooks[0].matchConditions[1].name: FieldValueDuplicate']
  );
  const many = Array.from({ length: 65 }, (_, i) => ({ name: `c${i}`, expression: 'true' }));
  assert.deepEqual(mc(many), ['webhooks[0].matchConditions: FieldValueTooMany']);
  assert.deepEqual(mc(many.slice(0, 64)), []);
});

test('the expression check, when given, is asked for every expression with its kind and path', () => {
  const seen: string[] = [];
  const check: ExpressionCheck = (expr, ctx, path) => {
    seen.push(`${ctx.kind}:${path.toString()}:${ctx.hasParams}:${ctx.preexisting}`);
    return expr === 'bad'
      ? [
          {
            type: 'FieldValueInvalid',
            field: path.toString(),
            message: 'compilation failed',
            value: expr,
          },
        ]
      : [];
  };
  const errs = validateWebhookConfiguration(
    config(hook({ matchConditions: [{ name: 'a', expression: 'bad' }] })),
    false,
    { ...createWebhookOptions, checkExpression: check }
  );
  assert.deepEqual(fields(errs), ['webhooks[0].matchConditions[0].expression: FieldValueInvalid']);
  assert.deepEqual(seen, [
    'webhookMatchCondition:webhooks[0].matchConditions[0].expression:false:false',
  ]);
});

test('updates ratchet as upstream: duplicate names, unknown review versions and legacy side effects already stored stay valid', () => {
  const dup = config(hook(), hook());
  assert.deepEqual(fields(validateWebhookConfiguration(dup, false)), [
    'webhooks[1].name: FieldValueDuplicate',
  ]);
  assert.deepEqual(
    validateWebhookConfiguration(dup, false, webhookUpdateOptions(dup, dup, {})),
    []
  );
  const unique = config(hook());
  const toDup = config(hook(), hook());
  assert.deepEqual(
    fields(validateWebhookConfiguration(toDup, false, webhookUpdateOptions(toDup, unique, {}))),
    ['webhooks[1].name: FieldValueDuplicate'],
    'an object with unique names may not gain duplicates'
  );
  const legacy = config(hook({ sideEffects: 'Unknown', admissionReviewVersions: ['v2'] }));
  assert.deepEqual(
    validateWebhookConfiguration(legacy, false, webhookUpdateOptions(legacy, legacy, {})),
    []
  );
  const stricter = config(hook({ sideEffects: 'Unknown' }));
  assert.deepEqual(
    fields(
      validateWebhookConfiguration(stricter, false, webhookUpdateOptions(stricter, unique, {}))
    ),
    ['webhooks[0].sideEffects: FieldValueNotSupported']
  );
  const badSel = config(
    hook({
      objectSelector: { matchExpressions: [{ key: 'a', operator: 'In', values: ['bad value'] }] },
    })
  );
  assert.deepEqual(
    validateWebhookConfiguration(badSel, false, webhookUpdateOptions(badSel, badSel, {})),
    []
  );
});

// Policies and bindings

const policy = (spec: Record<string, unknown> = {}, name = 'replicas.example.com'): ApiObject => ({
  metadata: { name },
  spec: {
    failurePolicy: 'Fail',
    matchConstraints: {
      matchPolicy: 'Equivalent',
      namespaceSelector: {},
      objectSelector: {},
      resourceRules: [
        {
          operations: ['CREATE'],
          apiGroups: ['apps'],
          apiVersions: ['v1'],
          resources: ['deployments'],
          scope: '*',
        },
      ],
    },
    validations: [{ expression: 'object.spec.replicas < 5' }],
    ...spec,
  },
});
const pErrs = (spec: Record<string, unknown>, name?: string) =>
  fields(validateValidatingAdmissionPolicy(policy(spec, name)));

test('policy: a valid policy has no errors; paramKind apiVersion and kind required when set', () => {
  assert.deepEqual(pErrs({}), []);
  assert.deepEqual(pErrs({ paramKind: { apiVersion: 'v1', kind: 'ConfigMap' } }), []);
  assert.deepEqual(
    pErrs({ paramKind: { apiVersion: 'example.com/v1', kind: 'ReplicaLimit' } }),
    []
  );
  assert.deepEqual(pErrs({ paramKind: {} }), [
    'spec.paramKind.apiVersion: FieldValueRequired',
    'spec.paramKind.kind: FieldValueRequired',
  ]);
  assert.deepEqual(pErrs({ paramKind: { apiVersion: 'a/b/c', kind: 'X' } }), [
    'spec.paramKind.apiVersion: FieldValueInvalid',
  ]);
  assert.deepEqual(pErrs({ paramKind: { apiVersion: 'v1', kind: 'Bad_Kind' } }), [
    'spec.paramKind.kind: FieldValueInvalid',
  ]);
});

test('policy: matchConstraints required with resourceRules; its selectors, matchPolicy and rules validated', () => {
  assert.deepEqual(pErrs({ matchConstraints: undefined }), [
    'spec.matchConstraints: FieldValueRequired',
  ]);
  assert.deepEqual(
    pErrs({
      matchConstraints: { matchPolicy: 'Exact', namespaceSelector: {}, objectSelector: {} },
    }),
    ['spec.matchConstraints.resourceRules: FieldValueRequired']
  );
  assert.deepEqual(
    pErrs({
      matchConstraints: {
        matchPolicy: 'Sometimes',
        namespaceSelector: {},
        objectSelector: {},
        resourceRules: [
          {
            resourceNames: ['a', 'a', 'x/y'],
            operations: ['CREATE'],
            apiGroups: ['*'],
            apiVersions: ['*'],
            resources: ['*'],
          },
        ],
        excludeResourceRules: [
          { operations: [], apiGroups: ['*'], apiVersions: ['*'], resources: ['*'] },
        ],
      },
    }),
    [
      'spec.matchConstraints.matchPolicy: FieldValueNotSupported',
      'spec.matchConstraints.resourceRules[0].resourceNames[1]: FieldValueDuplicate',
      'spec.matchConstraints.resourceRules[0].resourceNames[2]: FieldValueInvalid',
      'spec.matchConstraints.excludeResourceRules[0].operations: FieldValueRequired',
    ]
  );
});

test('policy: validations or auditAnnotations required; expression required; message without line breaks; reason known', () => {
  assert.deepEqual(pErrs({ validations: [] }), [
    'spec.validations: FieldValueRequired',
    'spec.auditAnnotations: FieldValueRequired',
  ]);
  assert.deepEqual(
    pErrs({ validations: [], auditAnnotations: [{ key: 'r', valueExpression: "'x'" }] }),
    []
  );
  assert.deepEqual(pErrs({ validations: [{ expression: ' ' }] }), [
    'spec.validations[0].expression: FieldValueRequired',
  ]);
  assert.deepEqual(pErrs({ validations: [{ expression: 'true', message: 'two\nlines' }] }), [
    'spec.validations[0].message: FieldValueInvalid',
  ]);
  assert.deepEqual(pErrs({ validations: [{ expression: 'true', message: '   ' }] }), [
    'spec.validations[0].message: FieldValueInvalid',
  ]);
  for (const reason of ['Unauthorized', 'Forbidden', 'Invalid', 'RequestEntityTooLarge'])
    assert.deepEqual(pErrs({ validations: [{ expression: 'true', reason }] }), [], reason);
  assert.deepEqual(pErrs({ validations: [{ expression: 'true', reason: 'NotFound' }] }), [
    'spec.validations[0].reason: FieldValueNotSupported',
  ]);
  assert.deepEqual(pErrs({ validations: [{ expression: 'true', messageExpression: '  ' }] }), [
    'spec.validations[0].messageExpression: FieldValueInvalid',
  ]);
});

test('policy: variables are CEL identifiers, unique, with an expression; failurePolicy Ignore or Fail', () => {
  assert.deepEqual(
    pErrs({ variables: [{ name: 'replicas', expression: 'object.spec.replicas' }] }),
    []
  );
  assert.deepEqual(pErrs({ variables: [{ name: '1st', expression: 'x' }] }), [
    'spec.variables[0].name: FieldValueInvalid',
  ]);
  assert.deepEqual(pErrs({ variables: [{ name: 'in', expression: 'x' }] }), [
    'spec.variables[0].name: FieldValueInvalid',
  ]);
  assert.deepEqual(pErrs({ variables: [{ name: 'a', expression: '' }] }), [
    'spec.variables[0].expression: FieldValueRequired',
  ]);
  assert.deepEqual(
    pErrs({
      variables: [
        { name: 'a', expression: '1' },
        { name: 'a', expression: '2' },
      ],
    }),
    ['spec.variables[1].name: FieldValueDuplicate']
  );
  assert.deepEqual(pErrs({ failurePolicy: 'Maybe' }), [
    'spec.failurePolicy: FieldValueNotSupported',
  ]);
  assert.deepEqual(pErrs({ failurePolicy: undefined }), ['spec.failurePolicy: FieldValueRequired']);
});

test('policy: auditAnnotations key a qualified name with the policy name, unique; valueExpression required, at most 5kb; at most 20', () => {
  const aa = (a: unknown) => pErrs({ auditAnnotations: a });
  assert.deepEqual(aa([{ key: 'replicas', valueExpression: 'x' }]), []);
  assert.deepEqual(aa([{ key: 'bad key', valueExpression: 'x' }]), [
    'spec.auditAnnotations[0].key: FieldValueInvalid',
  ]);
  assert.deepEqual(aa([{ key: 'a', valueExpression: '' }]), [
    'spec.auditAnnotations[0].valueExpression: FieldValueRequired',
  ]);
  assert.deepEqual(aa([{ key: 'a', valueExpression: 'x'.repeat(5 * 1024 + 1) }]), [
    'spec.auditAnnotations[0].valueExpression: FieldValueRequired',
  ]);
  assert.deepEqual(
    aa([
      { key: 'a', valueExpression: 'x' },
      { key: 'a', valueExpression: 'y' },
    ]),
    ['spec.auditAnnotations[1].key: FieldValueDuplicate']
  );
  assert.deepEqual(
    aa(Array.from({ length: 21 }, (_, i) => ({ key: `k${i}`, valueExpression: 'x' }))),
    ['spec.auditAnnotations: FieldValueInvalid']
  );
});

test('policy: matchConditions as webhooks; unchanged ones are not validated again on update; expressions of the old object are preexisting', () => {
  assert.deepEqual(pErrs({ matchConditions: [{ name: '', expression: 'true' }] }), [
    'spec.matchConditions[0].name: FieldValueRequired',
  ]);
  const seen: string[] = [];
  const check: ExpressionCheck = (expr, ctx) => {
    seen.push(`${ctx.kind}:${expr}:${ctx.preexisting}:${ctx.hasParams}:${ctx.variables.join(',')}`);
    return [];
  };
  const old = policy({
    paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
    matchConditions: [{ name: 'm', expression: 'true' }],
    variables: [{ name: 'v', expression: '1' }],
  });
  const next = policy({
    paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
    matchConditions: [{ name: 'm', expression: 'true' }],
    variables: [{ name: 'v', expression: '1' }],
    validations: [{ expression: 'variables.v == 1' }],
  });
  assert.deepEqual(
    validateValidatingAdmissionPolicyUpdate(next, old, { checkExpression: check }),
    []
  );
  assert.deepEqual(seen, ['variable:1:true:true:', 'validation:variables.v == 1:false:true:v']);
});

test('policy status: expression warnings need fieldRef and warning; conditions need a type, unique, and a known status', () => {
  const st = (status: unknown) =>
    fields(validateValidatingAdmissionPolicyStatus({ metadata: { name: 'p' }, status }));
  assert.deepEqual(
    st({
      typeChecking: {
        expressionWarnings: [{ fieldRef: 'spec.validations[0].expression', warning: 'w' }],
      },
      conditions: [{ type: 'Ready', status: 'True' }],
    }),
    []
  );
  assert.deepEqual(st({ typeChecking: { expressionWarnings: [{}] } }), [
    'status.typeChecking.expressionWarnings[0].warning: FieldValueRequired',
    'status.typeChecking.expressionWarnings[0].fieldRef: FieldValueRequired',
  ]);
  assert.deepEqual(
    st({
      conditions: [
        { type: 'Ready', status: 'Yes' },
        { type: 'Ready', status: 'True' },
      ],
    }),
    [
      'status.conditions[0].status: FieldValueNotSupported',
      'status.conditions[1].type: FieldValueDuplicate',
    ]
  );
});

const binding = (spec: Record<string, unknown>): ApiObject => ({
  metadata: { name: 'b' },
  spec: { policyName: 'replicas.example.com', validationActions: ['Deny'], ...spec },
});
const bErrs = (spec: Record<string, unknown>) =>
  fields(validateValidatingAdmissionPolicyBinding(binding(spec)));

test('binding: policyName required; validationActions required, unique, known, not Deny with Warn', () => {
  assert.deepEqual(bErrs({}), []);
  assert.deepEqual(bErrs({ policyName: '' }), ['spec.policyName: FieldValueRequired']);
  assert.deepEqual(bErrs({ policyName: 'Bad_Name' }), ['spec.policyName: FieldValueInvalid']);
  assert.deepEqual(bErrs({ validationActions: [] }), [
    'spec.validationActions: FieldValueRequired',
  ]);
  assert.deepEqual(bErrs({ validationActions: ['Warn', 'Audit'] }), []);
  assert.deepEqual(bErrs({ validationActions: ['Deny', 'Deny'] }), [
    'spec.validationActions[1]: FieldValueDuplicate',
  ]);
  assert.deepEqual(bErrs({ validationActions: ['Block'] }), [
    'spec.validationActions[0]: FieldValueNotSupported',
  ]);
  assert.deepEqual(bErrs({ validationActions: ['Deny', 'Warn'] }), [
    'spec.validationActions: FieldValueInvalid',
  ]);
});

test('binding: paramRef name xor selector, parameterNotFoundAction Allow or Deny required; matchResources as policies', () => {
  assert.deepEqual(
    bErrs({ paramRef: { name: 'limits', namespace: 'default', parameterNotFoundAction: 'Allow' } }),
    []
  );
  assert.deepEqual(
    bErrs({ paramRef: { selector: { matchLabels: { a: 'b' } }, parameterNotFoundAction: 'Deny' } }),
    []
  );
  assert.deepEqual(bErrs({ paramRef: { parameterNotFoundAction: 'Deny' } }), [
    'spec.paramRef: FieldValueRequired',
  ]);
  assert.deepEqual(
    bErrs({ paramRef: { name: 'a', selector: {}, parameterNotFoundAction: 'Deny' } }),
    ['spec.paramRef.name: FieldValueForbidden', 'spec.paramRef.selector: FieldValueForbidden']
  );
  assert.deepEqual(bErrs({ paramRef: { name: 'a' } }), [
    'spec.paramRef.parameterNotFoundAction: FieldValueRequired',
  ]);
  assert.deepEqual(bErrs({ paramRef: { name: 'a', parameterNotFoundAction: 'Ignore' } }), [
    'spec.paramRef.parameterNotFoundAction: FieldValueNotSupported',
  ]);
  assert.deepEqual(
    bErrs({ paramRef: { name: 'a', namespace: 'Bad_NS', parameterNotFoundAction: 'Deny' } }),
    ['spec.paramRef.namespace: FieldValueInvalid']
  );
  assert.deepEqual(
    bErrs({
      matchResources: {
        matchPolicy: 'Exact',
        namespaceSelector: {},
        objectSelector: { matchExpressions: [{ key: 'k', operator: 'In' }] },
      },
    }),
    ['spec.matchResources.objectSelector.matchExpressions[0].values: FieldValueRequired']
  );
});

test('the realistic objects of the four kinds (what the fuzzer writes) validate cleanly, in every served version', () => {
  const defs = builtinResources.filter((d) => d.group === 'admissionregistration.orch.io');
  assert.deepEqual([...new Set(defs.map((d) => d.kind))].sort(), [
    'MutatingWebhookConfiguration',
    'ValidatingAdmissionPolicy',
    'ValidatingAdmissionPolicyBinding',
    'ValidatingWebhookConfiguration',
  ]);
  for (const def of defs) {
    const obj: unknown = structuredClone(
      realisticObjects[`${def.group}/${def.version}/${def.kind}`]
    );
    assert.ok(isApiObject(obj), def.kind);
    const s = providedStrategy(admissionRegistrationProvider, def.resource);
    assert.deepEqual(s.validate(obj), [], def.kind);
    assert.deepEqual(s.validateUpdate(obj, obj), [], def.kind);
  }
});
