// Legacy (unaggregated) discovery and /version, derived from the resource registry
// (k8s endpoints/discovery: legacyRootAPIHandler, rootAPIsHandler, APIGroupHandler, APIVersionHandler).
//
// kubectl 1.27+ asks for aggregated discovery first (Accept: ...;g=apidiscovery.k8s.io;v=v2;
// as=APIGroupDiscoveryList,...,application/json): `/api` and `/apis` then answer the aggregated
// document (aggregated-discovery.ts), as upstream's WrapAggregatedDiscoveryToHandler does; every
// other answer here is the plain JSON document with `Content-Type: application/json`.
import type { HttpRequest, HttpResponse } from '../http/handler.js';
import type { PathMux, RouteParams } from '../http/path-mux.js';
import { newPathNotFound, statusInWireOrder } from '@orch/apimachinery/errors';
import type { ResourceDefinition, ResourceRegistry, Verb } from '@orch/apimachinery/registry';
import { formatApiVersion } from '@orch/apimachinery/schema';
import type { GroupVersion } from '@orch/apimachinery/schema';

/** The /version document (k8s version.Info). */
export interface VersionInfo {
  major: string;
  minor: string;
  gitVersion: string;
  gitCommit: string;
  gitTreeState: string;
  buildDate: string;
  goVersion: string;
  compiler: string;
  platform: string;
}

const goArch: Partial<Record<string, string>> = {
  x64: 'amd64',
  ia32: '386',
  arm64: 'arm64',
  arm: 'arm',
};

/** The Kubernetes minor this server imitates, with the orch version as build metadata. */
export function defaultVersionInfo(overrides: Partial<VersionInfo> = {}): VersionInfo {
  return {
    major: '1',
    minor: '32',
    gitVersion: 'v1.32.0-orch.0.1.0',
    gitCommit: 'unknown',
    gitTreeState: 'clean',
    buildDate: '1970-01-01T00:00:00Z',
    goVersion: 'n/a',
    compiler: 'tsc',
    platform: `${process.platform}/${goArch[process.arch] ?? process.arch}`,
    ...overrides,
  };
}

export interface GroupVersionForDiscovery {
  groupVersion: string;
  version: string;
}

export interface APIGroup {
  kind: 'APIGroup';
  apiVersion: 'v1';
  name: string;
  versions: GroupVersionForDiscovery[];
  preferredVersion: GroupVersionForDiscovery;
}

export interface APIResource {
  name: string;
  singularName: string;
  namespaced: boolean;
  kind: string;
  /** The group and version of a subresource's kind when not the parent's (scale, eviction). */
  group?: string;
  version?: string;
  verbs: string[];
  shortNames?: string[];
  categories?: string[];
}

export interface APIResourceList {
  kind: 'APIResourceList';
  apiVersion: 'v1';
  groupVersion: string;
  resources: APIResource[];
}

const verbsBySubresource: Partial<Record<string, readonly Verb[]>> = {
  status: ['get', 'patch', 'update'],
  scale: ['get', 'patch', 'update'],
  finalize: ['update'],
  eviction: ['create'],
  binding: ['create'],
  token: ['create'],
  log: ['get'],
  exec: ['create', 'get'],
  proxy: ['create', 'delete', 'get', 'patch', 'update'],
};

/** The kind of a subresource that reads or takes another kind than its parent's (upstream's GroupVersionKinder). */
const kindsBySubresource: Partial<
  Record<string, { group: string; version: string; kind: string }>
> = {
  scale: { group: 'autoscaling', version: 'v1', kind: 'Scale' },
  eviction: { group: 'policy', version: 'v1', kind: 'Eviction' },
};

/** The group, version and kind a subresource reads or takes when not its parent's. */
export function kindOfSubresource(
  subresource: string,
  resource = ''
): { group?: string; version?: string; kind: string } | undefined {
  const options = connectOptionsKinds[`${resource}/${subresource}`];
  return options ? { kind: options } : kindsBySubresource[subresource];
}

/** The options kind a connect subresource of a core resource names (upstream's discovery). */
const connectOptionsKinds: Partial<Record<string, string>> = {
  'pods/exec': 'PodExecOptions',
  'pods/attach': 'PodAttachOptions',
  'pods/portforward': 'PodPortForwardOptions',
  'pods/proxy': 'PodProxyOptions',
  'nodes/proxy': 'NodeProxyOptions',
  'services/proxy': 'ServiceProxyOptions',
};

/** Verbs of a subresource by name; anything not listed behaves like `status`. */
export function subresourceVerbs(subresource: string): readonly Verb[] {
  return verbsBySubresource[subresource] ?? ['get', 'patch', 'update'];
}

/** k8s version priority: GA before beta before alpha, higher numbers first, others last by name. */
export function compareKubeVersions(a: string, b: string): number {
  const rank = (v: string): [number, number, number] | undefined => {
    const m = /^v(\d+)(?:(alpha|beta)(\d+))?$/.exec(v);
    if (!m) return undefined;
    const stability = m[2] === undefined ? 3 : m[2] === 'beta' ? 2 : 1;
    return [stability, Number(m[1]), Number(m[3] ?? 0)];
  };
  const ra = rank(a);
  const rb = rank(b);
  if (!ra || !rb) return ra ? -1 : rb ? 1 : a.localeCompare(b);
  return rb[0] - ra[0] || rb[1] - ra[1] || rb[2] - ra[2];
}

function forDiscovery(gv: GroupVersion): GroupVersionForDiscovery {
  return { groupVersion: formatApiVersion(gv), version: gv.version };
}

/** Non-core groups in registration order, versions in priority order (the first is preferred). */
export function apiGroups(registry: ResourceRegistry): APIGroup[] {
  const versions = new Map<string, string[]>();
  for (const gv of registry.groupVersions()) {
    if (gv.group === '') continue;
    const list = versions.get(gv.group) ?? [];
    list.push(gv.version);
    versions.set(gv.group, list);
  }
  return [...versions].map(([name, vs]) => {
    const sorted = [...vs]
      .sort(compareKubeVersions)
      .map((version) => forDiscovery({ group: name, version }));
    const preferred = sorted[0] ?? forDiscovery({ group: name, version: '' });
    return {
      kind: 'APIGroup',
      apiVersion: 'v1',
      name,
      versions: sorted,
      preferredVersion: preferred,
    };
  });
}

function toAPIResources(def: ResourceDefinition): APIResource[] {
  const main: APIResource = {
    name: def.resource,
    singularName: def.singular,
    namespaced: def.namespaced,
    kind: def.kind,
    verbs: [...def.verbs],
  };
  if (def.shortNames && def.shortNames.length > 0) main.shortNames = [...def.shortNames];
  if (def.categories && def.categories.length > 0) main.categories = [...def.categories];
  const subs = (def.subresources ?? []).map((sub): APIResource => ({
    name: `${def.resource}/${sub}`,
    singularName: '',
    namespaced: def.namespaced,
    kind: def.kind,
    ...kindOfSubresource(sub, def.group === '' ? def.resource : ''),
    verbs: [...subresourceVerbs(sub)],
  }));
  return [main, ...subs];
}

/** The APIResourceList of one served group version, or undefined when it is not served. */
export function apiResourceList(
  registry: ResourceRegistry,
  gv: GroupVersion
): APIResourceList | undefined {
  const defs = registry.resourcesIn(gv);
  if (defs.length === 0) return undefined;
  return {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: formatApiVersion(gv),
    resources: defs.flatMap(toAPIResources),
  };
}

/** As upstream's discovery answers (json.Encoder): one line ending in a newline. */
function writeJson(res: HttpResponse, code: number, body: unknown): void {
  res.statusCode = code;
  res.setHeader('Content-Type', 'application/json');
  res.setHeader('Cache-Control', 'no-cache, private');
  res.end(`${JSON.stringify(body)}\n`);
}

function writeNotFound(res: HttpResponse): void {
  writeJson(res, 404, statusInWireOrder(newPathNotFound().status));
}

function param(params: RouteParams, name: string): string {
  return params[name] ?? '';
}

interface Discovered {
  groupList: { kind: string; apiVersion: string; groups: APIGroup[] };
  byName: Map<string, APIGroup>;
  coreVersions: string[];
}

function discovered(registry: ResourceRegistry): Discovered {
  const groups = apiGroups(registry);
  return {
    groupList: { kind: 'APIGroupList', apiVersion: 'v1', groups },
    byName: new Map(groups.map((g) => [g.name, g])),
    coreVersions: registry
      .groupVersions()
      .filter((gv) => gv.group === '')
      .map((gv) => gv.version)
      .sort(compareKubeVersions),
  };
}

/**
 * The aggregated form of `/api` and `/apis` (aggregated-discovery.ts, which builds on this file):
 * each answers a request whose Accept asks for it and returns true, or returns false.
 */
export interface AggregatedDiscovery {
  core(req: HttpRequest, res: HttpResponse): boolean;
  groups(req: HttpRequest, res: HttpResponse): boolean;
  /** Groups served elsewhere (extension servers), listed after the registry's own. */
  extraGroups?: () => readonly APIGroup[];
}

/**
 * Installs GET /api, /api/v1, /apis, /apis/:group, /apis/:group/:version and /version; `/api` and
 * `/apis` answer through `aggregated` first when given.
 */
export function installDiscovery(
  app: PathMux,
  registry: ResourceRegistry,
  version: VersionInfo,
  aggregated?: AggregatedDiscovery
): void {
  // Computed again whenever the registry's set of defs changed (custom resources come and go).
  let computed: { generation: number; groups: Discovered } | undefined;
  const current = (): Discovered => {
    if (computed?.generation !== registry.generation) {
      computed = { generation: registry.generation, groups: discovered(registry) };
    }
    return computed.groups;
  };

  // Upstream writes the version with WriteRawJSON: indented, without a newline.
  app.get('/version', (_req, res) => {
    res.statusCode = 200;
    res.setHeader('Content-Type', 'application/json');
    res.setHeader('Cache-Control', 'no-cache, private');
    res.end(JSON.stringify(version, null, 2));
  });

  app.get('/api', (req, res) => {
    if (aggregated?.core(req, res)) return;
    writeJson(res, 200, {
      kind: 'APIVersions',
      versions: current().coreVersions,
      serverAddressByClientCIDRs: [
        {
          clientCIDR: '0.0.0.0/0',
          serverAddress: req.headers.host ?? req.headers[':authority'] ?? '',
        },
      ],
    });
  });

  app.get('/api/:version', (_req, res, params) => {
    const list = apiResourceList(registry, { group: '', version: param(params, 'version') });
    if (list) writeJson(res, 200, list);
    else writeNotFound(res);
  });

  // A group served here wins over an extension server's of the same name.
  const extra = (): APIGroup[] =>
    (aggregated?.extraGroups?.() ?? []).filter((g) => !current().byName.has(g.name));
  app.get('/apis', (req, res) => {
    if (aggregated?.groups(req, res)) return;
    const own = current().groupList;
    const more = extra();
    writeJson(res, 200, more.length ? { ...own, groups: [...own.groups, ...more] } : own);
  });

  app.get('/apis/:group', (_req, res, params) => {
    const name = param(params, 'group');
    const group = current().byName.get(name) ?? extra().find((g) => g.name === name);
    if (group) writeJson(res, 200, group);
    else writeNotFound(res);
  });

  app.get('/apis/:group/:version', (_req, res, params) => {
    const group = param(params, 'group');
    // `/apis//v1` must not reach the core group.
    const list =
      group === ''
        ? undefined
        : apiResourceList(registry, { group, version: param(params, 'version') });
    if (list) writeJson(res, 200, list);
    else writeNotFound(res);
  });
}
