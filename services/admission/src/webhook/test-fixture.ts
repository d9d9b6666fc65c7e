// The plugins' world for the tests: listers over plain arrays of real objects (namespaces and
// webhook configurations, changed between requests as a watch would), a registry, a quiet
// logger, a MatchConditionsCompiler for webhooks without matchConditions, and a context that
// records warnings and audit annotations.
import { Registry } from 'prom-client';

import type { ApiObject } from '@orch/apimachinery/meta';
import { createLogger } from '@orch/component-base/logs';

import type {
  AdmissionContext,
  AdmissionRequest,
  MatchConditionsCompiler,
  PluginDeps,
} from '../interfaces.js';
import { arrayLister } from '../matching/test-lister.js';

import type { WebhookObject } from './webhook-source.js';

export interface Fixture {
  deps: PluginDeps;
  namespaces: ApiObject[];
  mutating: ApiObject[];
  validating: ApiObject[];
  /** CustomResourceDefinitions, for matchPolicy Equivalent over custom resources. */
  crds: ApiObject[];
  registry: Registry;
}

/** The compiler of an empty condition list: every request matches. */
export const noConditions: MatchConditionsCompiler = () => ({
  conditions: { evaluate: () => Promise.resolve({ matches: true }) },
  errors: [],
});

export function fixture(config?: unknown): Fixture {
  const namespaces: ApiObject[] = [
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a', labels: { env: 'prod' } } },
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-b', labels: { env: 'dev' } } },
  ];
  const mutating: ApiObject[] = [];
  const validating: ApiObject[] = [];
  const crds: ApiObject[] = [];
  const registry = new Registry();
  const deps: PluginDeps = {
    listers: {
      namespaces: arrayLister(namespaces),
      forResource: (group, resource) => {
        if (group === 'apiextensions.orch.io' && resource === 'customresourcedefinitions')
          return Promise.resolve(arrayLister(crds));
        if (group !== 'admissionregistration.orch.io') throw new Error(`unexpected group ${group}`);
        if (resource === 'mutatingwebhookconfigurations')
          return Promise.resolve(arrayLister(mutating));
        if (resource === 'validatingwebhookconfigurations')
          return Promise.resolve(arrayLister(validating));
        throw new Error(`unexpected resource ${resource}`);
      },
    },
    registry,
    log: createLogger('webhook-test', 'error'),
    config,
    matchConditions: noConditions,
  };
  return { deps, namespaces, mutating, validating, crds, registry };
}

let rv = 1;

/** A configuration object as the gateway stores it (v1 defaults applied unless overridden). */
export function configuration(
  kind: 'MutatingWebhookConfiguration' | 'ValidatingWebhookConfiguration',
  name: string,
  webhooks: WebhookObject[]
): ApiObject {
  return {
    apiVersion: 'admissionregistration.orch.io/v1',
    kind,
    metadata: { name, uid: `uid-${name}`, resourceVersion: String(rv++) },
    webhooks,
  };
}

/** A webhook with v1 defaults calling `path` on the test server by URL. */
export function hook(
  port: number,
  caPem: string,
  path: string,
  over: Partial<WebhookObject> = {}
): WebhookObject {
  return {
    name: `${path.slice(1) || 'root'}.hooks.example.com`,
    clientConfig: {
      url: `https://127.0.0.1:${port}${path}`,
      caBundle: Buffer.from(caPem).toString('base64'),
    },
    rules: [
      { operations: ['*'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'], scope: '*' },
    ],
    failurePolicy: 'Fail',
    matchPolicy: 'Equivalent',
    namespaceSelector: {},
    objectSelector: {},
    sideEffects: 'None',
    timeoutSeconds: 10,
    admissionReviewVersions: ['v1'],
    ...over,
  };
}

export function podRequest(over: Partial<AdmissionRequest> = {}): AdmissionRequest {
  return {
    operation: 'CREATE',
    kind: { group: '', version: 'v1', kind: 'Pod' },
    resource: { group: '', version: 'v1', resource: 'pods' },
    subResource: '',
    namespace: 'team-a',
    name: 'web-1',
    userInfo: {
      name: 'alice',
      uid: 'u-1',
      groups: ['devs', 'system:authenticated'],
      extra: { scopes: ['a'] },
    },
    object: {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'web-1', namespace: 'team-a', labels: { app: 'web' } },
      spec: { containers: [{ name: 'c', image: 'nginx' }] },
    },
    oldObject: undefined,
    options: { apiVersion: 'meta.orch.io/v1', kind: 'CreateOptions' },
    dryRun: false,
    ...over,
  };
}

export interface RecordingContext extends AdmissionContext {
  warnings: string[];
  annotations: Record<string, string>;
}

export function recordingContext(
  signal: AbortSignal = new AbortController().signal
): RecordingContext {
  const warnings: string[] = [];
  const annotations: Record<string, string> = {};
  return {
    warnings,
    annotations,
    signal,
    warn: (text) => warnings.push(text),
    annotate: (key, value) => {
      annotations[key] = value;
    },
  };
}
