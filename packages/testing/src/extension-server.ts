// A test extension API server (what a metrics server is to kubectl top): a real HTTPS server
// that trusts the front proxy through its requestheader client CA (a client certificate that CA
// signed, upstream's requestheader authentication with no allowed names) and takes the user
// from X-Remote-User / X-Remote-Group, and serves `metrics.k8s.io/v1beta1` NodeMetrics and
// PodMetrics (upstream's metrics API, k8s.io/metrics, under its own name: an extension server's
// group is its own, not one this server renames; kubectl top asks for it) with its discovery
// and its OpenAPI documents (`/openapi/v3`, a root linking `apis/metrics.k8s.io/v1beta1`, and
// `/openapi/v2`; their schemas carry the descriptions of k8s.io/metrics, for `kubectl explain`).
// Its serving certificate names `<service>.<namespace>.svc`, as an APIService's caBundle
// verifies it.
import { createHash } from 'node:crypto';
import type { ServingPems, WebhookCall, WebhookServer } from './webhook-server.js';
import { startWebhookServer } from './webhook-server.js';

export const metricsGroup = 'metrics.k8s.io';
export const metricsVersion = 'v1beta1';

export interface ContainerUsage {
  name: string;
  /** Quantities: `cpu` as `250m`, `memory` as `64Mi`. */
  usage: { cpu: string; memory: string };
}

export interface MetricsData {
  nodes: { name: string; usage: { cpu: string; memory: string } }[];
  pods: { namespace: string; name: string; containers: ContainerUsage[] }[];
}

export interface ExtensionServer extends WebhookServer {
  /** The users the front proxy named, one per request (X-Remote-User). */
  users(): string[];
}

export interface ExtensionServerOptions {
  /** The Service it stands behind, for its certificate's name. */
  service: { namespace: string; name: string };
  /** The CA that signs the front proxy's client certificate (requestheader client CA), PEM. */
  requestHeaderCaPem: string;
  data: MetricsData;
  /**
   * Serve discovery in the legacy form only, as servers built before aggregated discovery do
   * (default: `/apis` answers an APIGroupDiscoveryList to a client that asks for one).
   */
  legacyDiscoveryOnly?: boolean;
  /** Answer each metrics request this many milliseconds late (a slow backend; discovery is not). */
  delayMs?: number;
  /** To start it again where a stopped one was: its port and certificate. */
  port?: number;
  serving?: ServingPems;
}

const usageWindow = '30s';
const timestamp = '2026-01-01T00:00:00Z';

export async function startExtensionServer(o: ExtensionServerOptions): Promise<ExtensionServer> {
  const gv = `${metricsGroup}/${metricsVersion}`;
  const handle = async (call: WebhookCall) => {
    const answer = discoveryOf(call);
    if (answer) return answer;
    if (o.delayMs) await new Promise((r) => setTimeout(r, o.delayMs));
    return metricsOf(call);
  };
  /** The refusal of a request without a user, or a discovery or OpenAPI answer. */
  const discoveryOf = (call: WebhookCall) => {
    const user = call.headers['x-remote-user'];
    if (typeof user !== 'string' || user === '')
      return { status: 401, body: status(401, 'Unauthorized') };
    const url = new URL(call.path, 'https://x');
    const path = url.pathname.replace(/\/$/, '');
    if (path === '/apis' && !o.legacyDiscoveryOnly && asksAggregated(call.headers.accept))
      return { body: aggregatedDiscovery(gv), contentType: aggregatedContentType };
    if (path === '/apis')
      return { body: { kind: 'APIGroupList', apiVersion: 'v1', groups: [group()] } };
    if (path === `/apis/${metricsGroup}`)
      return { body: { kind: 'APIGroup', apiVersion: 'v1', ...group() } };
    if (path === `/apis/${gv}`) return { body: resources(gv) };
    if (path === '/openapi/v2') return { body: openApiV2 };
    if (path === '/openapi/v3') return { body: openApiV3Root() };
    if (path === `/openapi/v3/apis/${gv}`) return { body: openApiV3 };
    return undefined;
  };
  const metricsOf = (call: WebhookCall) => {
    const path = new URL(call.path, 'https://x').pathname.replace(/\/$/, '');
    const nodes = new RegExp(`^/apis/${gv}/nodes(?:/([^/]+))?$`).exec(path);
    if (nodes) {
      const items = o.data.nodes
        .filter((n) => !nodes[1] || n.name === nodes[1])
        .map((n) => ({
          metadata: { name: n.name, creationTimestamp: timestamp },
          timestamp,
          window: usageWindow,
          usage: n.usage,
        }));
      return answer(gv, 'NodeMetrics', nodes[1], items);
    }
    const pods = new RegExp(`^/apis/${gv}(?:/namespaces/([^/]+))?/pods(?:/([^/]+))?$`).exec(path);
    if (pods) {
      const items = o.data.pods
        .filter((p) => (!pods[1] || p.namespace === pods[1]) && (!pods[2] || p.name === pods[2]))
        .map((p) => ({
          metadata: { name: p.name, namespace: p.namespace, creationTimestamp: timestamp },
          timestamp,
          window: usageWindow,
          containers: p.containers,
        }));
      return answer(gv, 'PodMetrics', pods[2], items);
    }
    return { status: 404, body: status(404, 'the server could not find the requested resource') };
  };
  const server = await startWebhookServer(handle, {
    dnsNames: [`${o.service.name}.${o.service.namespace}.svc`],
    clientCaPem: o.requestHeaderCaPem,
    ...(o.port === undefined ? {} : { port: o.port }),
    ...(o.serving ? { serving: o.serving } : {}),
  });
  return {
    ...server,
    users: () =>
      server.calls
        .map((c) => c.headers['x-remote-user'])
        .filter((u): u is string => typeof u === 'string'),
  };
}

const schemas = 'io.k8s.metrics.pkg.apis.metrics.v1beta1';
const ref = (name: string) => ({ allOf: [{ $ref: `#/components/schemas/${name}` }] });
const typeMeta = {
  apiVersion: {
    description:
      'APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values.',
    type: 'string',
  },
  kind: {
    description:
      'Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase.',
    type: 'string',
  },
  metadata: {
    ...ref('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta'),
    default: {},
    description: "Standard object's metadata.",
  },
};
const usage = {
  type: 'object',
  additionalProperties: ref('io.k8s.apimachinery.pkg.api.resource.Quantity'),
};
const window = {
  timestamp: {
    description:
      'The following fields define time interval from which metrics were collected from the interval [Timestamp-Window, Timestamp].',
    ...ref('io.k8s.apimachinery.pkg.apis.meta.v1.Time'),
  },
  window: ref('io.k8s.apimachinery.pkg.apis.meta.v1.Duration'),
};
const gvk = (kind: string) => [{ group: metricsGroup, kind, version: metricsVersion }];

/** The metrics API's OpenAPI v3 document (the schemas of k8s.io/metrics, abridged to its kinds). */
const openApiV3 = {
  openapi: '3.0.0',
  info: { title: 'Kubernetes metrics-server', version: metricsVersion },
  // kubectl explain finds a resource's kind from the `get` operation of its paths.
  paths: Object.fromEntries(
    [
      ['nodes', 'NodeMetrics'],
      ['nodes/{name}', 'NodeMetrics'],
      ['pods', 'PodMetrics'],
      ['namespaces/{namespace}/pods', 'PodMetrics'],
      ['namespaces/{namespace}/pods/{name}', 'PodMetrics'],
    ].map(([path, kind]) => [
      `/apis/${metricsGroup}/${metricsVersion}/${path}`,
      {
        get: {
          responses: {
            '200': {
              description: 'OK',
              content: {
                'application/json': {
                  schema: ref(`${schemas}.${kind}${path!.endsWith('}') ? '' : 'List'}`),
                },
              },
            },
          },
          'x-kubernetes-action': path!.endsWith('}') ? 'get' : 'list',
          'x-kubernetes-group-version-kind': gvk(kind!)[0],
        },
      },
    ])
  ),
  components: {
    schemas: {
      [`${schemas}.NodeMetrics`]: {
        description: 'NodeMetrics sets resource usage metrics of a node.',
        type: 'object',
        required: ['timestamp', 'window', 'usage'],
        properties: {
          ...typeMeta,
          ...window,
          usage: { ...usage, description: 'The memory usage is the memory working set.' },
        },
        'x-kubernetes-group-version-kind': gvk('NodeMetrics'),
      },
      [`${schemas}.PodMetrics`]: {
        description: 'PodMetrics sets resource usage metrics of a pod.',
        type: 'object',
        required: ['timestamp', 'window', 'containers'],
        properties: {
          ...typeMeta,
          ...window,
          containers: {
            description: 'Metrics for all containers are collected within the same time window.',
            type: 'array',
            items: { ...ref(`${schemas}.ContainerMetrics`), default: {} },
            'x-kubernetes-list-type': 'atomic',
          },
        },
        'x-kubernetes-group-version-kind': gvk('PodMetrics'),
      },
      [`${schemas}.ContainerMetrics`]: {
        description: 'ContainerMetrics sets resource usage metrics of a container.',
        type: 'object',
        required: ['name', 'usage'],
        properties: {
          name: {
            description: 'Container name corresponding to the one from pod.spec.containers.',
            type: 'string',
            default: '',
          },
          usage: { ...usage, description: 'The memory usage is the memory working set.' },
        },
      },
      'io.k8s.apimachinery.pkg.api.resource.Quantity': { type: 'string' },
      'io.k8s.apimachinery.pkg.apis.meta.v1.Duration': { type: 'string' },
      'io.k8s.apimachinery.pkg.apis.meta.v1.Time': { type: 'string', format: 'date-time' },
      'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta': {
        description:
          'ObjectMeta is metadata that all persisted resources must have, which includes all objects users must create.',
        type: 'object',
        properties: { name: { type: 'string' }, namespace: { type: 'string' } },
      },
    },
  },
};

/** The same schemas as a Swagger 2.0 document's definitions (what `/openapi/v2` serves). */
const openApiV2 = {
  swagger: '2.0',
  info: openApiV3.info,
  paths: {},
  definitions: JSON.parse(
    JSON.stringify(openApiV3.components.schemas).replaceAll(
      '#/components/schemas/',
      '#/definitions/'
    )
  ) as unknown,
};

function openApiV3Root() {
  const hash = createHash('sha512').update(JSON.stringify(openApiV3)).digest('hex').toUpperCase();
  const key = `apis/${metricsGroup}/${metricsVersion}`;
  return { paths: { [key]: { serverRelativeURL: `/openapi/v3/${key}?hash=${hash}` } } };
}

const aggregatedContentType =
  'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';

const asksAggregated = (accept: string | undefined): boolean =>
  (accept ?? '')
    .split(',')
    .some((a) => /g=apidiscovery\.k8s\.io;\s*v=v2;\s*as=APIGroupDiscoveryList/.test(a));

/** `/apis` as an apidiscovery.k8s.io/v2 APIGroupDiscoveryList: the group, its version, its kinds. */
function aggregatedDiscovery(gv: string) {
  const verbs = ['get', 'list'];
  const kind = (k: string) => ({ group: metricsGroup, version: metricsVersion, kind: k });
  return {
    kind: 'APIGroupDiscoveryList',
    apiVersion: 'apidiscovery.k8s.io/v2',
    metadata: {},
    items: [
      {
        metadata: { name: metricsGroup, creationTimestamp: null },
        versions: [
          {
            version: gv.split('/')[1],
            resources: [
              {
                resource: 'nodes',
                responseKind: kind('NodeMetrics'),
                scope: 'Cluster',
                singularResource: 'nodemetrics',
                verbs,
              },
              {
                resource: 'pods',
                responseKind: kind('PodMetrics'),
                scope: 'Namespaced',
                singularResource: 'podmetrics',
                verbs,
              },
            ],
            freshness: 'Current',
          },
        ],
      },
    ],
  };
}

function group() {
  const version = { groupVersion: `${metricsGroup}/${metricsVersion}`, version: metricsVersion };
  return { name: metricsGroup, versions: [version], preferredVersion: version };
}

function resources(gv: string) {
  const verbs = ['get', 'list'];
  return {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: gv,
    resources: [
      { name: 'nodes', singularName: '', namespaced: false, kind: 'NodeMetrics', verbs },
      { name: 'pods', singularName: '', namespaced: true, kind: 'PodMetrics', verbs },
    ],
  };
}

function answer(gv: string, kind: string, name: string | undefined, items: unknown[]) {
  if (name === undefined)
    return { body: { kind: `${kind}List`, apiVersion: gv, metadata: {}, items } };
  const item = items[0];
  if (item === undefined)
    return { status: 404, body: status(404, `${kind.toLowerCase()} "${name}" not found`) };
  return { body: { kind, apiVersion: gv, ...(item as object) } };
}

function status(code: number, message: string) {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, code };
}

/**
 * What registers a running extension server with the API: its Service (no selector, port 443 to
 * the server's port), an EndpointSlice with its loopback address, and the APIService of
 * `metrics.k8s.io/v1beta1` naming the Service with the server's caBundle. Each with the path it is
 * created at.
 */
export function registrationOf(
  server: ExtensionServer,
  o: { namespace: string; service: string }
): { path: string; body: object }[] {
  const ns = `/namespaces/${o.namespace}`;
  return [
    {
      path: `/api/v1${ns}/services`,
      body: {
        metadata: { name: o.service },
        spec: { ports: [{ name: 'https', port: 443, targetPort: server.port }] },
      },
    },
    {
      path: `/apis/discovery.orch.io/v1${ns}/endpointslices`,
      body: {
        metadata: { name: o.service, labels: { 'kubernetes.io/service-name': o.service } },
        addressType: 'IPv4',
        endpoints: [{ addresses: ['127.0.0.1'], conditions: { ready: true } }],
        ports: [{ name: 'https', port: server.port, protocol: 'TCP' }],
      },
    },
    {
      path: '/apis/apiregistration.orch.io/v1/apiservices',
      body: {
        metadata: { name: `${metricsVersion}.${metricsGroup}` },
        spec: {
          group: metricsGroup,
          version: metricsVersion,
          service: { namespace: o.namespace, name: o.service, port: 443 },
          caBundle: server.caBundle,
          groupPriorityMinimum: 100,
          versionPriority: 100,
        },
      },
    },
  ];
}
