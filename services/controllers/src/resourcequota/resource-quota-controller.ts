// The resource quota controller (k8s pkg/controller/resourcequota): keeps each ResourceQuota's
// status right through the public API with the controllers' identity. status.hard follows
// spec.hard; status.used is recalculated from the namespace's objects (a consistent list per
// counted resource, through the evaluators admission uses) and written with the quota's read
// resourceVersion as precondition, so a charge admission made meanwhile is never overwritten
// (a conflict reads again); a release (usage going down) is written only after a settle with
// no charge meanwhile, so an object charged by admission but not yet stored is not released. A
// quota is synced when it appears or its spec changes, when an
// object it counts is deleted or changes what it consumes (replenishment: deleted objects
// release usage), and on a full resync every `resyncMs`.
import { setTimeout as sleep } from 'node:timers/promises';
import { isConflict, isNotFound, newConflict } from '@orch/apimachinery/errors';
import type { RestClient } from '@orch/apimachinery/client';
import { RestListerWatcher, SharedInformer } from '@orch/apimachinery/informer';
import {
  addResourceLists,
  equalResourceLists,
  evaluatorFor,
  formatResourceList,
  maskResourceList,
  parseResourceList,
  quantityFromInt,
  quotaMatches,
  resourceOfQuotaName,
} from '@orch/apimachinery/quota';
import type { Evaluator, ResourceList } from '@orch/apimachinery/quota';
import type { Logger } from '@orch/component-base/logs';

type Json = Record<string, unknown>;

export interface ResourceQuotaControllerOptions {
  /** Full resync period (upstream's --resource-quota-sync-period, 5 minutes). */
  resyncMs?: number;
  /** How long a release waits for creates charged just before it to be stored (500 ms). */
  settleMs?: number;
}

const meta = (o: Json): { name: string; namespace: string; resourceVersion?: string } =>
  (o['metadata'] ?? {}) as { name: string; namespace: string; resourceVersion?: string };
const specHard = (q: Json): Json => ((q['spec'] as Json | undefined)?.['hard'] ?? {}) as Json;

export class ResourceQuotaController {
  readonly #client: RestClient;
  readonly #log: Logger;
  readonly #resyncMs: number;
  readonly #settleMs: number;
  readonly #quotas: SharedInformer;
  /** Informers of the counted resources, by `<group>/<resource>`, started on first need. */
  readonly #counted = new Map<string, SharedInformer>();
  /** API paths of groups' preferred versions (`/apis/apps/v1`), from discovery. */
  readonly #groupPaths = new Map<string, string>();
  readonly #queue = new Set<string>();
  readonly #abort = new AbortController();
  #working = false;
  #resync: NodeJS.Timeout | undefined;

  constructor(client: RestClient, log: Logger, opts: ResourceQuotaControllerOptions = {}) {
    this.#client = client;
    this.#log = log.child({ controller: 'resourcequota' });
    this.#resyncMs = opts.resyncMs ?? 5 * 60_000;
    this.#settleMs = opts.settleMs ?? 500;
    this.#quotas = new SharedInformer({
      listerWatcher: new RestListerWatcher(client, '/api/v1/resourcequotas'),
      name: 'resourcequotas',
      log: this.#log,
    });
    this.#quotas.addEventHandler({
      onAdd: (q) => this.#enqueueQuota(q),
      onUpdate: (old, q) => {
        // A charge by admission changes status.used only: nothing to do for it.
        if (JSON.stringify(q['spec']) !== JSON.stringify(old['spec']) || this.#needsHard(q)) {
          this.#enqueueQuota(q);
        }
      },
    });
  }

  /** Runs until stop(): lists and watches quotas, syncing each as it comes. */
  async run(): Promise<void> {
    const stopped = new Promise<void>((resolve) =>
      this.#abort.signal.addEventListener('abort', () => resolve(), { once: true })
    );
    await this.#quotas.start();
    this.#resync = setInterval(() => {
      for (const q of this.#quotas.list()) this.#enqueueQuota(q);
    }, this.#resyncMs);
    this.#resync.unref();
    await stopped;
  }

  stop(): void {
    if (this.#resync) clearInterval(this.#resync);
    this.#quotas.stop();
    for (const i of this.#counted.values()) i.stop();
    this.#abort.abort();
  }

  #needsHard(q: Json): boolean {
    const status = (q['status'] ?? {}) as Json;
    return !equalResourceLists(parseResourceList(specHard(q)), parseResourceList(status['hard']));
  }

  #enqueueQuota(q: Json): void {
    const { namespace, name } = meta(q);
    this.#enqueue(`${namespace}/${name}`);
    for (const n of Object.keys(specHard(q))) {
      const gr = resourceOfQuotaName(n);
      if (gr) this.#watchCounted(gr.group, gr.resource);
    }
  }

  #enqueue(key: string): void {
    if (this.#abort.signal.aborted) return;
    this.#queue.add(key);
    void this.#work();
  }

  /** Replenishment: a counted object deleted or changing what it consumes resyncs its namespace's quotas. */
  #watchCounted(group: string, resource: string): void {
    const id = `${group}/${resource}`;
    if (this.#counted.has(id) || this.#abort.signal.aborted) return;
    const evaluator = evaluatorFor(group, resource);
    const informer = new SharedInformer({
      listerWatcher: {
        list: async (...args) => (await this.#listerWatcher(group, resource)).list(...args),
        watch: async (...args) => (await this.#listerWatcher(group, resource)).watch(...args),
      },
      name: `quota-${id}`,
      log: this.#log,
    });
    const replenish = (o: Json): void => {
      const ns = meta(o).namespace;
      for (const q of this.#quotas.list()) {
        if (meta(q).namespace === ns) this.#enqueue(`${ns}/${meta(q).name}`);
      }
    };
    informer.addEventHandler({
      onDelete: replenish,
      onUpdate: (old, o) => {
        if (!equalResourceLists(evaluator.usage(old), evaluator.usage(o))) replenish(o);
      },
    });
    this.#counted.set(id, informer);
    informer.start().catch((err: unknown) => {
      this.#log.warn('cannot watch a counted resource', { resource: id, err });
      this.#counted.delete(id);
    });
  }

  async #listerWatcher(group: string, resource: string): Promise<RestListerWatcher> {
    return new RestListerWatcher(this.#client, `${await this.#groupPath(group)}/${resource}`);
  }

  async #groupPath(group: string): Promise<string> {
    if (group === '') return '/api/v1';
    let path = this.#groupPaths.get(group);
    if (!path) {
      const g = await this.#client.request('GET', `/apis/${group}`);
      const gv = (g['preferredVersion'] as { groupVersion?: string } | undefined)?.groupVersion;
      if (!gv) throw new Error(`group ${group} has no preferred version`);
      path = `/apis/${gv}`;
      this.#groupPaths.set(group, path);
    }
    return path;
  }

  async #work(): Promise<void> {
    if (this.#working) return;
    this.#working = true;
    try {
      while (this.#queue.size > 0 && !this.#abort.signal.aborted) {
        const key = this.#queue.values().next().value as string;
        this.#queue.delete(key);
        try {
          await this.syncQuota(key);
        } catch (err) {
          if (this.#abort.signal.aborted) break;
          if (!isConflict(err)) this.#log.warn('quota sync failed; retrying', { key, err });
          setTimeout(() => this.#enqueue(key), isConflict(err) ? 50 : 1000).unref();
        }
      }
    } finally {
      this.#working = false;
    }
  }

  /** The objects of a resource in a namespace, by a consistent list; [] when it is not served. */
  async #objects(group: string, resource: string, namespace: string): Promise<Json[]> {
    let base: string;
    try {
      base = await this.#groupPath(group);
    } catch (err) {
      if (isNotFound(err)) return [];
      throw err;
    }
    try {
      const list = await this.#client.request('GET', `${base}/namespaces/${namespace}/${resource}`);
      return (list['items'] as Json[] | undefined) ?? [];
    } catch (err) {
      if (isNotFound(err)) return [];
      throw err;
    }
  }

  /**
   * Recalculates one quota (`<namespace>/<name>`) and writes its status when it changed, with
   * the read resourceVersion as precondition (a conflict throws: the queue tries again).
   */
  async syncQuota(key: string): Promise<void> {
    const [namespace = '', name = ''] = key.split('/');
    const quota = await this.#getQuota(namespace, name);
    if (!quota) return;
    const hard = parseResourceList(specHard(quota));
    let used = await this.#usage(quota, hard, namespace);
    const recorded = parseResourceList(((quota['status'] ?? {}) as Json)['used']);
    if (lowers(used, recorded)) {
      // A release. Admission charges a quota just before the object is stored: a charge read
      // here whose object the list missed would be lost. Settle, then release only if no charge
      // came meanwhile (same resourceVersion), counting again (the object stored by then).
      await sleep(this.#settleMs);
      const again = await this.#getQuota(namespace, name);
      if (!again) return;
      if (meta(again).resourceVersion !== meta(quota).resourceVersion) {
        throw newConflict(
          { group: '', resource: 'resourcequotas' },
          name,
          'charged while settling; counting again'
        );
      }
      used = await this.#usage(quota, hard, namespace);
    }
    const status = (quota['status'] ?? {}) as Json;
    const sameHard = equalResourceLists(hard, parseResourceList(status['hard']));
    if (sameHard && equalResourceLists(used, recorded)) return;
    await this.#client.request(
      'PUT',
      `/api/v1/namespaces/${namespace}/resourcequotas/${name}/status`,
      {
        ...quota,
        status: { hard: formatResourceList(hard), used: formatResourceList(used) },
      }
    );
    this.#log.info('quota status updated', { key });
  }

  async #getQuota(namespace: string, name: string): Promise<Json | undefined> {
    try {
      return await this.#client.request(
        'GET',
        `/api/v1/namespaces/${namespace}/resourcequotas/${name}`
      );
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  /** What the namespace's objects consume of each resource the quota limits (0 when none). */
  async #usage(quota: Json, hard: ResourceList, namespace: string): Promise<ResourceList> {
    const names = Object.keys(hard);
    const byResource = new Map<string, { evaluator: Evaluator; names: string[] }>();
    for (const n of names) {
      const gr = resourceOfQuotaName(n);
      if (!gr) continue;
      const id = `${gr.group}/${gr.resource}`;
      if (!byResource.has(id))
        byResource.set(id, { evaluator: evaluatorFor(gr.group, gr.resource), names: [] });
      byResource.get(id)!.names.push(n);
    }
    // Every limited resource starts at zero (upstream: unknown resources are reported as 0).
    let used: ResourceList = Object.fromEntries(
      names.map((n) => [n, quantityFromInt(0, hard[n]!.format)])
    );
    const scoped = { ...quota, status: { hard: specHard(quota) } };
    const now = Date.now();
    for (const { evaluator, names: own } of byResource.values()) {
      let sum: ResourceList = {};
      for (const o of await this.#objects(evaluator.group, evaluator.resource, namespace)) {
        if (!quotaMatches(evaluator, scoped, o)) continue;
        sum = addResourceLists(sum, evaluator.usage(o, now));
      }
      used = { ...used, ...maskResourceList(sum, own) };
    }
    return used;
  }
}

/** Is any resource of `next` below what `recorded` says? */
function lowers(next: ResourceList, recorded: ResourceList): boolean {
  return Object.entries(next).some(
    ([k, v]) => recorded[k] !== undefined && v.nano < recorded[k].nano
  );
}
