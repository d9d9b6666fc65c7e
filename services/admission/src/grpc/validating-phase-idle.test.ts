// The mutating reply's hint that the validating phase has nothing to do: asked of each plugin of
// the call by resource and operation, conservative (selectors, names and conditions are not
// looked at), never idle for a plugin that cannot say.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Registry } from 'prom-client';
import type { ApiObject } from '@orch/apimachinery/meta';
import { createLogger } from '@orch/component-base/logs';
import { newAlwaysDeny } from '../always/always.js';
import { newAlwaysPullImages } from '../always-pull-images/always-pull-images.js';
import type { AdmissionRequest, PluginDeps, ServicePlugin } from '../interfaces.js';
import { arrayLister } from '../matching/test-lister.js';
import { compileMatchConditions, ValidatingAdmissionPolicy } from '../policy/index.js';
import { ValidatingAdmissionWebhook } from '../webhook/index.js';
import { validatingPhaseIdle } from './admission-service.js';

const G = 'admissionregistration.orch.io';
const rule = (resources: string[]) => ({
  operations: ['CREATE'],
  apiGroups: [''],
  apiVersions: ['v1'],
  resources,
});

const webhookConfigs: ApiObject[] = [
  {
    apiVersion: `${G}/v1`,
    kind: 'ValidatingWebhookConfiguration',
    metadata: { name: 'pods-only', uid: 'u1', resourceVersion: '1' },
    webhooks: [
      {
        name: 'pods.hooks.example.com',
        clientConfig: { url: 'https://127.0.0.1:1/' },
        rules: [rule(['pods'])],
        // Selectors never make a phase idle: the object may still change before it.
        objectSelector: { matchLabels: { never: 'set' } },
        sideEffects: 'None',
        admissionReviewVersions: ['v1'],
      },
    ],
  },
];
const policies: ApiObject[] = [
  {
    apiVersion: `${G}/v1`,
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name: 'secrets-only', uid: 'u2', resourceVersion: '1' },
    spec: {
      failurePolicy: 'Fail',
      matchConstraints: { resourceRules: [{ ...rule(['secrets']), resourceNames: ['only-this'] }] },
      validations: [{ expression: 'true' }],
    },
  },
];

function deps(): PluginDeps {
  const byResource: Record<string, ApiObject[]> = {
    validatingwebhookconfigurations: webhookConfigs,
    validatingadmissionpolicies: policies,
    validatingadmissionpolicybindings: [],
  };
  return {
    listers: {
      namespaces: arrayLister([{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'a' } }]),
      forResource: (_group, resource) => Promise.resolve(arrayLister(byResource[resource] ?? [])),
    },
    registry: new Registry(),
    log: createLogger('test', 'error'),
    config: undefined,
    matchConditions: compileMatchConditions,
  };
}

const request = (resource: string, name = 'x'): AdmissionRequest => ({
  operation: 'CREATE',
  kind: { group: '', version: 'v1', kind: 'Thing' },
  resource: { group: '', version: 'v1', resource },
  subResource: '',
  namespace: 'a',
  name,
  userInfo: { name: 'alice', uid: '', groups: [], extra: {} },
  object: { apiVersion: 'v1', kind: 'Thing', metadata: { name, namespace: 'a' } },
  oldObject: undefined,
  options: undefined,
  dryRun: false,
});

test('validating phase idle: by resource and operation, per plugin, conservative', async () => {
  const d = deps();
  const webhooks = ValidatingAdmissionWebhook(d);
  const policy = ValidatingAdmissionPolicy(d);
  const pull = newAlwaysPullImages(d);
  const deny = newAlwaysDeny(d);
  const rows: [string, ServicePlugin[], AdmissionRequest, boolean][] = [
    ['webhook rules for pods, a configmap', [webhooks], request('configmaps'), true],
    [
      'webhook rules for pods, a pod (its objectSelector not looked at)',
      [webhooks],
      request('pods'),
      false,
    ],
    ['policy for secrets, a configmap', [policy], request('configmaps'), true],
    [
      'policy for one secret, another secret (resourceNames not looked at)',
      [policy],
      request('secrets', 'other'),
      false,
    ],
    ['AlwaysPullImages, a configmap', [pull], request('configmaps'), true],
    ['AlwaysPullImages, a pod', [pull], request('pods'), false],
    ['AlwaysDeny cannot say: never idle', [deny], request('configmaps'), false],
    [
      'all of them, a configmap: AlwaysDeny keeps it',
      [webhooks, policy, pull, deny],
      request('configmaps'),
      false,
    ],
    ['all but AlwaysDeny, a configmap', [webhooks, policy, pull], request('configmaps'), true],
  ];
  for (const [row, plugins, req, idle] of rows) {
    assert.equal(await validatingPhaseIdle(plugins, req), idle, row);
  }
  const del = { ...request('pods'), operation: 'DELETE' as const };
  assert.equal(
    await validatingPhaseIdle([pull], del),
    true,
    'a plugin that does not handle DELETE'
  );
});
