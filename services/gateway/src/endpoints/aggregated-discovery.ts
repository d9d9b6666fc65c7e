// Aggregated discovery (k8s endpoints/discovery/aggregated: handler.go, wrapper.go, etag.go, and
// the installer's ConvertGroupVersionIntoToDiscovery): `/api` and `/apis` answer one
// APIGroupDiscoveryList with every group, version and resource when the client's Accept asks for
// it (`application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList`, or v2beta1, whose
// documents are the same). Any other Accept gets the legacy documents (discovery.ts).
//
// The group is answered under the name the client asked: `apidiscovery.k8s.io` (what kubectl and
// client-go ask for) or the spec's `apidiscovery.orch.io`. JSON only: the binary envelope has no
// schema for these kinds, so a protobuf entry is skipped and the next acceptable entry is used.
//
// The document is computed again whenever the registry's set of defs moves (custom resources come
// and go) and, through `extraGroups`, whenever an extension server's discovery changes; its ETag is
// the SHA-512 of its JSON as upstream computes it, and a matching If-None-Match gets a 304.
import { createHash } from 'node:crypto';
import type { HttpRequest, HttpResponse } from '../http/handler.js';
import type { ResourceDefinition, ResourceRegistry } from '@orch/apimachinery/registry';
import { parseAccept } from '../negotiation/negotiate.js';
import {
  compareKubeVersions,
  installDiscovery,
  kindOfSubresource,
  subresourceVerbs,
} from './discovery.js';
import type { APIGroup, VersionInfo } from './discovery.js';
import type { PathMux } from '../http/path-mux.js';

/** The groups the aggregated kinds are answered in: upstream's, which clients ask for, and orch's own. */
export const apidiscoveryGroups = ['apidiscovery.k8s.io', 'apidiscovery.orch.io'];
const apidiscoveryVersions = ['v2', 'v2beta1'];

export interface GroupVersionKindJson {
  group: string;
  version: string;
  kind: string;
}

/** apidiscovery/v2 APISubresourceDiscovery, fields in the Go struct's order. */
export interface APISubresourceDiscovery {
  subresource: string;
  responseKind?: GroupVersionKindJson;
  acceptedTypes?: GroupVersionKindJson[];
  verbs: string[];
}

/** apidiscovery/v2 APIResourceDiscovery, fields in the Go struct's order. */
export interface APIResourceDiscovery {
  resource: string;
  responseKind?: GroupVersionKindJson;
  scope: 'Namespaced' | 'Cluster';
  singularResource: string;
  verbs: string[];
  shortNames?: string[];
  categories?: string[];
  subresources?: APISubresourceDiscovery[];
}

/** apidiscovery/v2 APIVersionDiscovery. */
export interface APIVersionDiscovery {
  version: string;
  resources?: APIResourceDiscovery[];
  freshness?: 'Current' | 'Stale';
}

/** apidiscovery/v2 APIGroupDiscovery (its ObjectMeta carries only the name). */
export interface APIGroupDiscovery {
  metadata: { name?: string; creationTimestamp: null };
  versions?: APIVersionDiscovery[];
}

/** Groups served elsewhere (extension servers), merged after the registry's own. */
export interface ExtraDiscoveryGroups {
  /** Changes whenever the groups change, so the cached document is computed again. */
  readonly generation: number;
  groups(): readonly APIGroupDiscovery[];
  /** The same groups in the legacy form (`/apis`, `/apis/<group>`). */
  legacyGroups(): readonly APIGroup[];
}

/** The aggregated kind and group version the Accept header asks for, or undefined for the legacy documents. */
export function aggregatedDiscoveryAsked(
  accept: string | undefined
): { group: string; version: string } | undefined {
  if (!accept) return undefined;
  for (const e of parseAccept(accept)) {
    const as = e.params['as'];
    if (as === undefined) {
      // A plain type the legacy documents are written in comes first.
      if (['application/json', 'application/*', '*/*', 'application/yaml'].includes(e.type))
        return undefined;
      continue;
    }
    const group = e.params['g'] ?? '';
    const version = e.params['v'] ?? '';
    if (
      as === 'APIGroupDiscoveryList' &&
      e.type === 'application/json' &&
      apidiscoveryGroups.includes(group) &&
      apidiscoveryVersions.includes(version)
    )
      return { group, version };
  }
  return undefined;
}

/**
 * One resource in the aggregated form, from the def the legacy APIResource comes from: as
 * upstream's converter, a built-in's responseKind names only its kind (the legacy APIResource
 * has no group or version), a subresource of another kind names its group and version; custom
 * resources name their group and version as the CRD discovery controller does.
 */
export function toResourceDiscovery(def: ResourceDefinition): APIResourceDiscovery {
  const custom = def.customResource !== undefined;
  const own: GroupVersionKindJson = {
    group: custom ? def.group : '',
    version: custom ? def.version : '',
    kind: def.kind,
  };
  const out: APIResourceDiscovery = {
    resource: def.resource,
    responseKind: own,
    scope: def.namespaced ? 'Namespaced' : 'Cluster',
    singularResource: def.singular,
    verbs: [...def.verbs],
  };
  if (def.shortNames && def.shortNames.length > 0) out.shortNames = [...def.shortNames];
  if (def.categories && def.categories.length > 0) out.categories = [...def.categories];
  // Upstream's legacy list, which its converter reads, has a built-in's subresources sorted by
  // path; the CRD discovery controller lists status before scale.
  const names = custom ? [...(def.subresources ?? [])] : [...(def.subresources ?? [])].sort();
  const subs = names.map((sub): APISubresourceDiscovery => ({
    subresource: sub,
    responseKind: {
      ...own,
      ...kindOfSubresource(sub, custom || def.group !== '' ? '' : def.resource),
    },
    verbs: [...subresourceVerbs(sub)],
  }));
  if (subs.length > 0) out.subresources = subs;
  return out;
}

function groupDiscovery(
  name: string,
  byVersion: Map<string, ResourceDefinition[]>
): APIGroupDiscovery {
  const versions = [...byVersion.keys()]
    .sort(compareKubeVersions)
    .map((version): APIVersionDiscovery => ({
      version,
      resources: (byVersion.get(version) ?? []).map(toResourceDiscovery),
      freshness: 'Current',
    }));
  return {
    metadata: name === '' ? { creationTimestamp: null } : { name, creationTimestamp: null },
    versions,
  };
}

/**
 * The registry's groups in the aggregated form: the core group alone (`/api`), or every other
 * group in the order the legacy `/apis` lists them (`/apis`).
 */
export function aggregatedGroups(registry: ResourceRegistry, core: boolean): APIGroupDiscovery[] {
  const groups = new Map<string, Map<string, ResourceDefinition[]>>();
  for (const gv of registry.groupVersions()) {
    if ((gv.group === '') !== core) continue;
    const versions = groups.get(gv.group) ?? new Map<string, ResourceDefinition[]>();
    versions.set(gv.version, [...registry.resourcesIn(gv)]);
    groups.set(gv.group, versions);
  }
  return [...groups].map(([name, versions]) => groupDiscovery(name, versions));
}

interface Cached {
  key: string;
  items: APIGroupDiscovery[];
  etag: string;
}

/** Serves the aggregated form of `/api` (core) or `/apis`; computed again when its sources move. */
export class AggregatedDiscoveryHandler {
  #cached: Cached | undefined;

  constructor(
    private readonly registry: ResourceRegistry,
    private readonly core: boolean,
    private readonly extra?: ExtraDiscoveryGroups
  ) {}

  #current(): Cached {
    const key = `${this.registry.generation}/${this.extra?.generation ?? 0}`;
    if (this.#cached?.key === key) return this.#cached;
    const own = aggregatedGroups(this.registry, this.core);
    const names = new Set(own.map((g) => g.metadata.name ?? ''));
    // A group served here wins over an extension server's of the same name.
    const items = this.core
      ? own
      : [...own, ...(this.extra?.groups() ?? []).filter((g) => !names.has(g.metadata.name ?? ''))];
    // Upstream hashes the list as json.Marshal writes it: no kind or apiVersion, empty metadata.
    const etag = createHash('sha512')
      .update(JSON.stringify({ metadata: {}, items }))
      .digest('hex')
      .toUpperCase();
    this.#cached = { key, items, etag };
    return this.#cached;
  }

  /** The current document, for tests and for the merge into other views. */
  items(): readonly APIGroupDiscovery[] {
    return this.#current().items;
  }

  serve(req: HttpRequest, res: HttpResponse, asked: { group: string; version: string }): void {
    const { items, etag } = this.#current();
    const quoted = `"${etag}"`;
    res.setHeader('ETag', quoted);
    res.setHeader('Vary', 'Accept');
    res.setHeader('Cache-Control', 'public');
    if (req.headers['if-none-match'] === quoted) {
      res.statusCode = 304;
      res.end();
      return;
    }
    res.statusCode = 200;
    res.setHeader(
      'Content-Type',
      `application/json;g=${asked.group};v=${asked.version};as=APIGroupDiscoveryList`
    );
    const list = {
      kind: 'APIGroupDiscoveryList',
      apiVersion: `${asked.group}/${asked.version}`,
      metadata: {},
      items,
    };
    res.end(`${JSON.stringify(list)}\n`);
  }
}

/**
 * Installs discovery (discovery.ts) with the aggregated form of `/api` and `/apis`, the latter
 * with the `extra` groups merged.
 */
export function installAggregatedDiscovery(
  app: PathMux,
  registry: ResourceRegistry,
  version: VersionInfo,
  extra?: ExtraDiscoveryGroups
): void {
  const core = new AggregatedDiscoveryHandler(registry, true);
  const groups = new AggregatedDiscoveryHandler(registry, false, extra);
  const serveWith =
    (handler: AggregatedDiscoveryHandler) => (req: HttpRequest, res: HttpResponse) => {
      const asked = aggregatedDiscoveryAsked(req.headers.accept);
      if (asked) handler.serve(req, res, asked);
      return asked !== undefined;
    };
  installDiscovery(app, registry, version, {
    core: serveWith(core),
    groups: serveWith(groups),
    ...(extra ? { extraGroups: () => extra.legacyGroups() } : {}),
  });
}
