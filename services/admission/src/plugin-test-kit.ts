// What the built-in plugins' table tests share: PluginDeps over fixed objects (arrayLister, the
// same read-only view the informer-backed listers give), a request builder with upstream's
// attribute defaults, and a context that records warnings and audit annotations.
import { Registry } from 'prom-client';
import type { ApiObject } from '@orch/apimachinery/meta';
import { createLogger } from '@orch/component-base/logs';
import type {
  AdmissionContext,
  AdmissionRequest,
  PluginDeps,
  PluginSettings,
} from './interfaces.js';
import { arrayLister } from './matching/test-lister.js';
import { compileMatchConditions } from './policy/index.js';

export interface KitOptions {
  namespaces?: ApiObject[];
  /** Objects of other resources by plural resource name (`pods`, `serviceaccounts`). */
  objects?: Record<string, ApiObject[]>;
  config?: unknown;
  settings?: PluginSettings;
}

export function pluginDeps(o: KitOptions = {}): PluginDeps {
  return {
    listers: {
      namespaces: arrayLister(o.namespaces ?? []),
      forResource: (_group, resource) => Promise.resolve(arrayLister(o.objects?.[resource] ?? [])),
    },
    registry: new Registry(),
    log: createLogger('test', 'error'),
    config: o.config,
    matchConditions: compileMatchConditions,
    ...(o.settings ? { settings: o.settings } : {}),
  };
}

export const namespace = (
  name: string,
  labels?: Record<string, string>,
  annotations?: Record<string, string>
): ApiObject => ({
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name, ...(labels ? { labels } : {}), ...(annotations ? { annotations } : {}) },
});

const kinds: Record<string, string> = {
  pods: 'Pod',
  nodes: 'Node',
  services: 'Service',
  namespaces: 'Namespace',
  events: 'Event',
  leases: 'Lease',
  deployments: 'Deployment',
  replicasets: 'ReplicaSet',
};

export interface RequestOptions {
  operation?: AdmissionRequest['operation'];
  group?: string;
  resource: string;
  subResource?: string;
  namespace?: string;
  name?: string;
  user?: { name: string; groups?: string[] };
  object?: unknown;
  oldObject?: unknown;
  dryRun?: boolean;
}

export function request(o: RequestOptions): AdmissionRequest {
  const object = o.object as ApiObject | undefined;
  const group = o.group ?? '';
  return {
    operation: o.operation ?? 'CREATE',
    kind: {
      group,
      version: 'v1',
      kind: o.subResource ? 'Thing' : (kinds[o.resource] ?? 'Thing'),
    },
    resource: { group, version: 'v1', resource: o.resource },
    subResource: o.subResource ?? '',
    namespace: o.namespace ?? (o.resource === 'nodes' || o.resource === 'namespaces' ? '' : 'ns'),
    name: o.name ?? object?.metadata?.name ?? '',
    userInfo: {
      name: o.user?.name ?? 'alice',
      uid: '',
      groups: o.user?.groups ?? ['system:authenticated'],
      extra: {},
    },
    object,
    oldObject: o.oldObject as ApiObject | undefined,
    options: undefined,
    dryRun: o.dryRun ?? false,
  };
}

export interface RecordingContext extends AdmissionContext {
  warnings: string[];
  annotations: Record<string, string>;
}

export function recordingContext(): RecordingContext {
  const warnings: string[] = [];
  const annotations: Record<string, string> = {};
  return {
    warnings,
    annotations,
    warn: (t) => warnings.push(t),
    annotate: (k, v) => {
      annotations[k] ??= v;
    },
    signal: new AbortController().signal,
  };
}

/** A pod with the given spec (containers named as given). */
export function pod(
  name: string,
  spec: Record<string, unknown>,
  metadata: Record<string, unknown> = {}
): ApiObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'ns', ...metadata },
    spec,
  };
}

/** The spec of an admitted object, checked to be an object; T names the fields a test reads. */
export function specOf<T = Record<string, unknown>>(o: ApiObject | undefined): T {
  const spec: unknown = o?.['spec'];
  if (typeof spec !== 'object' || spec === null) throw new Error('object has no spec');
  return spec as T;
}
