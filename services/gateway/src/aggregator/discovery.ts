// The discovery of the groups extension servers serve, merged into the gateway's (kube-aggregator's
// handler_apis.go for the legacy `/apis` and `/apis/<group>`, its discovery aggregator for the
// aggregated form): each Available APIService that names a service has its version listed under
// its group, groups ordered by groupPriorityMinimum and versions by versionPriority, as upstream
// orders them. The resources of a version come from the extension server's legacy
// `/apis/<group>/<version>` APIResourceList, asked as `system:kube-aggregator` through the front
// proxy and converted as upstream converts a server without aggregated discovery; they are
// fetched when an APIService changes and every 30 s, and the last ones fetched are kept, marked
// Stale, while a fetch fails. A version never fetched is listed in the legacy documents only.
import type { Logger } from '@orch/component-base/logs';
import type { WatchCache } from '../cache/watch-cache.js';
import type {
  APIGroupDiscovery,
  APIResourceDiscovery,
  APIVersionDiscovery,
  ExtraDiscoveryGroups,
} from '../endpoints/aggregated-discovery.js';
import { compareKubeVersions } from '../endpoints/discovery.js';
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

export class ExtensionDiscovery implements ExtraDiscoveryGroups {
  #generation = 0;
  /** The resources last fetched, by APIService name, and whether that fetch is the latest. */
  readonly #fetched = new Map<string, { resources: APIResourceDiscovery[]; fresh: boolean }>();

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
    const refresh = (): void => {
      this.#generation++; // APIServices moved: the documents are computed again
      if (running) {
        again = true;
        return;
      }
      running = this.#fetchAll().finally(() => {
        running = undefined;
        if (again && !signal.aborted) {
          again = false;
          refresh();
        }
      });
    };
    this.apiServices.addEventHandler({
      onAdd: refresh,
      onUpdate: refresh,
      onDelete: refresh,
      onReplace: refresh,
    });
    const timer = setInterval(refresh, refreshMs);
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
        const before = JSON.stringify(this.#fetched.get(name));
        try {
          this.#fetched.set(name, { resources: await this.#resourcesOf(a), fresh: true });
        } catch (err) {
          const last = this.#fetched.get(name);
          if (last) last.fresh = false;
          this.log.debug('extension server discovery failed', { name, err: String(err) });
        }
        if (JSON.stringify(this.#fetched.get(name)) !== before) this.#generation++;
      })
    );
  }

  /** The extension server's APIResourceList of the APIService's version, converted. */
  #resourcesOf(api: Obj): Promise<APIResourceDiscovery[]> {
    const spec = obj(api['spec']);
    const ref = obj(spec['service']);
    const port = typeof ref['port'] === 'number' ? ref['port'] : 443;
    const service = { namespace: str(ref['namespace']), name: str(ref['name']) };
    const target = resolveService({ ...service, port }, this.config);
    if (target instanceof Error) return Promise.reject(target);
    const path = `/apis/${str(spec['group'])}/${str(spec['version'])}`;
    return new Promise((resolve, reject) => {
      const req = aggregatorGet(
        { ...target, ...service },
        spec,
        path,
        this.config,
        { Accept: 'application/json' },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (b: Buffer) => chunks.push(b));
          res.on('error', reject);
          res.on('end', () => {
            if (res.statusCode !== 200) return reject(new Error(`status ${res.statusCode}`));
            try {
              resolve(fromResourceList(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
            } catch (err) {
              reject(err instanceof Error ? err : new Error(String(err)));
            }
          });
        }
      );
      req.setTimeout(this.config.timeoutMs ?? 5000, () => req.destroy(new Error('timed out')));
      req.on('error', reject);
      req.end();
    });
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
