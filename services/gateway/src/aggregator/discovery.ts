// The discovery of the groups extension servers serve, merged into the gateway's (kube-aggregator's
// handler_apis.go for the legacy `/apis` and `/apis/<group>`, its discovery aggregator for the
// aggregated form): each Available APIService that names a service has its version listed under
// its group, groups ordered by groupPriorityMinimum and versions by versionPriority, as upstream
// orders them. The resources of a version come from the extension server's aggregated `/apis`
// (apidiscovery v2, then v2beta1) when it serves one, else from its legacy
// `/apis/<group>/<version>` APIResourceList converted as upstream converts a server without
// aggregated discovery (kube-aggregator's handler_discovery.go), asked as
// `system:kube-aggregator` through the front proxy; they are
// fetched when an APIService changes and every 30 s, and the last ones fetched are kept, marked
// Stale, while a fetch fails. A version never fetched is listed in the legacy documents only.
// The same fetch takes the version's OpenAPI v3 document from the server (its `/openapi/v3` root,
// then the document that root links for `apis/<group>/<version>`), which /openapi/v3 then lists
// and serves beside the gateway's own (kube-aggregator's openapiv3 aggregator), and its whole
// `/openapi/v2` document, whose paths and definitions /openapi/v2 merges in (its openapi
// aggregator); a server without them contributes none.
import type { Logger } from '@orch/component-base/logs';
import type { WatchCache } from '../cache/watch-cache.js';
import type {
  APIGroupDiscovery,
  APIResourceDiscovery,
  APIVersionDiscovery,
  ExtraDiscoveryGroups,
} from '../endpoints/aggregated-discovery.js';
import { compareKubeVersions } from '../endpoints/discovery.js';
import type { ExtraOpenApi } from '../endpoints/install-openapi.js';
import type { JsonObject } from '../endpoints/openapi.js';
import type { APIGroup } from '../endpoints/discovery.js';
import { aggregatorGet } from './availability.js';
import type { AvailabilityConfig } from './availability.js';
import { isAvailable, resolveService } from './proxy.js';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === 'object' ? (v as Obj) : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const num = (v: unknown): number => (typeof v === 'number' ? v : 0);

const refreshMs = 30_000;

/** What was last fetched of one APIService's version. */
interface Fetched {
  resources: APIResourceDiscovery[];
  /** Whether that fetch is the latest. */
  fresh: boolean;
  /** Its OpenAPI v3 document as the server sent it, if it serves one. */
  openApiV3?: Buffer;
  /** The server's OpenAPI v2 document, if it serves one. */
  openApiV2?: Buffer;
}

export class ExtensionDiscovery implements ExtraDiscoveryGroups, ExtraOpenApi {
  #generation = 0;
  /** What was last fetched, by APIService name. */
  readonly #fetched = new Map<string, Fetched>();

  constructor(
    private readonly apiServices: WatchCache,
    private readonly config: AvailabilityConfig,
    private readonly log: Logger
  ) {}

  get generation(): number {
    return this.#generation;
  }

  async run(signal: AbortSignal): Promise<void> {
    await this.apiServices.waitForSync();
    if (signal.aborted) return;
    let running: Promise<void> | undefined;
    let again = false;
    const fetchNow = (): void => {
      if (running) {
        again = true;
        return;
      }
      running = this.#fetchAll().finally(() => {
        running = undefined;
        if (again && !signal.aborted) {
          again = false;
          fetchNow();
        }
      });
    };
    const refresh = (): void => {
      this.#generation++; // APIServices moved: the documents are computed again
      fetchNow();
    };
    this.apiServices.addEventHandler({
      onAdd: refresh,
      onUpdate: refresh,
      onDelete: refresh,
      onReplace: refresh,
    });
    // The periodic fetch changes the generation only if what it fetched changed (#fetchAll).
    const timer = setInterval(fetchNow, refreshMs);
    timer.unref();
    signal.addEventListener('abort', () => clearInterval(timer), { once: true });
    refresh();
  }

  /** The Available APIServices that name a service. */
  #remote(): Obj[] {
    return this.apiServices
      .list()
      .filter((a) => str(obj(obj(a['spec'])['service'])['name']) !== '' && isAvailable(a));
  }

  async #fetchAll(): Promise<void> {
    const apis = this.#remote();
    const names = new Set(apis.map((a) => str(obj(a['metadata'])['name'])));
    for (const name of this.#fetched.keys()) if (!names.has(name)) this.#fetched.delete(name);
    await Promise.all(
      apis.map(async (a) => {
        const name = str(obj(a['metadata'])['name']);
        const last = this.#fetched.get(name);
        const before = last && JSON.stringify([last.resources, last.fresh]);
        const beforeDocs = [last?.openApiV3, last?.openApiV2];
        try {
          const resources = await this.#resourcesOf(a);
          const missing = (what: string) => (err: unknown) => {
            this.log.debug(`extension server ${what} not fetched`, { name, err: String(err) });
            return undefined;
          };
          const [openApiV3, openApiV2] = await Promise.all([
            this.#openApiV3Of(a).catch(missing('OpenAPI v3')),
            this.#get(a, '/openapi/v2').catch(missing('OpenAPI v2')),
          ]);
          this.#fetched.set(name, {
            resources,
            fresh: true,
            ...(openApiV3 ? { openApiV3 } : {}),
            ...(openApiV2 ? { openApiV2 } : {}),
          });
        } catch (err) {
          if (last) last.fresh = false;
          this.log.debug('extension server discovery failed', { name, err: String(err) });
        }
        const now = this.#fetched.get(name);
        const same = (a?: Buffer, b?: Buffer): boolean => (a && b ? a.equals(b) : a === b);
        if (
          (now && JSON.stringify([now.resources, now.fresh])) !== before ||
          !same(now?.openApiV3, beforeDocs[0]) ||
          !same(now?.openApiV2, beforeDocs[1])
        )
          this.#generation++;
      })
    );
  }

  /**
   * The resources of the APIService's version: from the server's aggregated discovery if it
   * answers in that form and lists the version, else its legacy APIResourceList, converted.
   */
  async #resourcesOf(api: Obj): Promise<APIResourceDiscovery[]> {
    const spec = obj(api['spec']);
    const [group, version] = [str(spec['group']), str(spec['version'])];
    const aggregated = await this.#get(api, '/apis', aggregatedAccept)
      .then((body) => fromAggregated(JSON.parse(body.toString('utf8')), group, version))
      .catch(() => undefined); // not served, not in that form, or not JSON: the legacy list
    if (aggregated) return aggregated;
    const legacy = await this.#get(api, `/apis/${group}/${version}`);
    return fromResourceList(JSON.parse(legacy.toString('utf8')));
  }

  /** The version's OpenAPI v3 document, as the server's `/openapi/v3` root links it. */
  async #openApiV3Of(api: Obj): Promise<Buffer | undefined> {
    const spec = obj(api['spec']);
    const root = obj(JSON.parse((await this.#get(api, '/openapi/v3')).toString('utf8')));
    const key = `apis/${str(spec['group'])}/${str(spec['version'])}`;
    const url = str(obj(obj(root['paths'])[key])['serverRelativeURL']);
    return url ? this.#get(api, url) : undefined;
  }

  /** A GET of `path` from the APIService's server, its 200 body; anything else rejects. */
  #get(api: Obj, path: string, accept = 'application/json'): Promise<Buffer> {
    const spec = obj(api['spec']);
    const ref = obj(spec['service']);
    const port = typeof ref['port'] === 'number' ? ref['port'] : 443;
    const service = { namespace: str(ref['namespace']), name: str(ref['name']) };
    const target = resolveService({ ...service, port }, this.config);
    if (target instanceof Error) return Promise.reject(target);
    return new Promise((resolve, reject) => {
      const req = aggregatorGet(
        { ...target, ...service },
        spec,
        path,
        this.config,
        { Accept: accept },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (b: Buffer) => chunks.push(b));
          res.on('error', reject);
          res.on('end', () => {
            if (res.statusCode !== 200) reject(new Error(`${path}: status ${res.statusCode}`));
            else if (accept === aggregatedAccept && !isAggregated(res.headers['content-type']))
              reject(new Error(`${path}: not aggregated discovery`));
            else resolve(Buffer.concat(chunks));
          });
        }
      );
      req.setTimeout(this.config.timeoutMs ?? 5000, () => req.destroy(new Error('timed out')));
      req.on('error', reject);
      req.end();
    });
  }

  /** The OpenAPI v2 documents of the servers of the Available remote versions, one per server. */
  openApiV2(): JsonObject[] {
    const docs = new Map<string, JsonObject>();
    for (const a of this.#remote()) {
      const doc = this.#fetched.get(str(obj(a['metadata'])['name']))?.openApiV2;
      const service = JSON.stringify(obj(a['spec'])['service']);
      if (!doc || docs.has(service)) continue;
      try {
        docs.set(service, JSON.parse(doc.toString('utf8')) as JsonObject);
      } catch {
        // not JSON: nothing to merge
      }
    }
    return [...docs.values()];
  }

  /** The OpenAPI v3 documents of the Available remote versions, keyed `apis/<group>/<version>`. */
  openApiV3(): Map<string, Buffer> {
    const docs = new Map<string, Buffer>();
    for (const a of this.#remote()) {
      const doc = this.#fetched.get(str(obj(a['metadata'])['name']))?.openApiV3;
      if (doc)
        docs.set(`apis/${str(obj(a['spec'])['group'])}/${str(obj(a['spec'])['version'])}`, doc);
    }
    return docs;
  }

  /** The aggregated form: the groups of the Available remote APIServices whose resources are known. */
  groups(): APIGroupDiscovery[] {
    return byGroup(this.#remote()).map(([name, apis]) => ({
      metadata: { name, creationTimestamp: null },
      versions: apis.flatMap((a): APIVersionDiscovery[] => {
        const got = this.#fetched.get(str(obj(a['metadata'])['name']));
        if (!got) return [];
        const version = str(obj(a['spec'])['version']);
        return [{ version, resources: got.resources, freshness: got.fresh ? 'Current' : 'Stale' }];
      }),
    }));
  }

  /** The legacy APIGroups (upstream's handler_apis builds them from the APIServices alone). */
  legacyGroups(): APIGroup[] {
    return byGroup(this.#remote()).map(([name, apis]) => {
      const versions = apis.map((a) => {
        const version = str(obj(a['spec'])['version']);
        return { groupVersion: `${name}/${version}`, version };
      });
      return { kind: 'APIGroup', apiVersion: 'v1', name, versions, preferredVersion: versions[0]! };
    });
  }
}

/** APIServices by group: groups by groupPriorityMinimum (highest first), versions by versionPriority. */
function byGroup(apis: Obj[]): [string, Obj[]][] {
  const groups = new Map<string, Obj[]>();
  for (const a of apis) {
    const g = str(obj(a['spec'])['group']);
    groups.set(g, [...(groups.get(g) ?? []), a]);
  }
  const spec = (a: Obj): Obj => obj(a['spec']);
  const groupPriority = (as: Obj[]): number =>
    Math.max(...as.map((a) => num(spec(a)['groupPriorityMinimum'])));
  return [...groups]
    .map(([g, as]): [string, Obj[]] => [
      g,
      [...as].sort(
        (x, y) =>
          num(spec(y)['versionPriority']) - num(spec(x)['versionPriority']) ||
          compareKubeVersions(str(spec(x)['version']), str(spec(y)['version']))
      ),
    ])
    .sort(([ga, a], [gb, b]) => groupPriority(b) - groupPriority(a) || ga.localeCompare(gb));
}

/** What the aggregator asks an extension server's `/apis` for (upstream's discovery manager). */
const aggregatedAccept =
  'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,' +
  'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json';

/** Whether an answer's Content-Type is an aggregated discovery document. */
function isAggregated(contentType: string | undefined): boolean {
  return /;\s*as=APIGroupDiscoveryList\b/.test(contentType ?? '');
}

/** The resources of `group`/`version` in an APIGroupDiscoveryList, if it lists that version. */
export function fromAggregated(
  list: unknown,
  group: string,
  version: string
): APIResourceDiscovery[] | undefined {
  const g = arr(obj(list)['items'])
    .map(obj)
    .find((i) => str(obj(i['metadata'])['name']) === group);
  const v = arr(g?.['versions'])
    .map(obj)
    .find((i) => str(i['version']) === version);
  return v ? (arr(v['resources']) as APIResourceDiscovery[]) : undefined;
}

/** A legacy APIResourceList in the aggregated form (upstream's converter for such servers). */
export function fromResourceList(list: unknown): APIResourceDiscovery[] {
  const resources = arr(obj(list)['resources']).map(obj);
  const out: APIResourceDiscovery[] = [];
  for (const r of resources) {
    const name = str(r['name']);
    if (!name || name.includes('/')) continue;
    const d: APIResourceDiscovery = {
      resource: name,
      responseKind: { group: '', version: '', kind: str(r['kind']) },
      scope: r['namespaced'] === true ? 'Namespaced' : 'Cluster',
      singularResource: str(r['singularName']),
      verbs: arr(r['verbs']).map(str),
    };
    const shortNames = arr(r['shortNames']).map(str);
    if (shortNames.length > 0) d.shortNames = shortNames;
    const categories = arr(r['categories']).map(str);
    if (categories.length > 0) d.categories = categories;
    const subs = resources.filter((s) => str(s['name']).startsWith(`${name}/`));
    if (subs.length > 0)
      d.subresources = subs.map((s) => ({
        subresource: str(s['name']).slice(name.length + 1),
        responseKind: { group: '', version: '', kind: str(s['kind']) },
        verbs: arr(s['verbs']).map(str),
      }));
    out.push(d);
  }
  return out;
}
