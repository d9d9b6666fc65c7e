// The disruption controller (k8s pkg/controller/disruption DisruptionController): the status of
// every PodDisruptionBudget (expectedPods, currentHealthy, desiredHealthy, disruptionsAllowed,
// observedGeneration, the DisruptionAllowed condition), from the pods its selector picks in its
// namespace and the scale of their controllers. Evictions (pods/eviction) take disruptions from
// that status; the entries they add to status.disruptedPods leave it once the pod is being
// deleted or after DeletionTimeout, when the budget is synced again (the recheck). A sync that
// fails (not on a conflict) writes the fail-safe status: no disruption allowed, SyncFailed.
// Events upstream records (NoPods, UnmanagedPods, ...) are logged here instead.
import { isConflict, isNotFound } from '@orch/apimachinery/errors';
import type { RestClient } from '@orch/apimachinery/client';
import { RestListerWatcher, SharedInformer } from '@orch/apimachinery/informer';
import { labelSelectorFromLabelSelectorObject } from '@orch/apimachinery/selectors';
import type { LabelSelectorObject } from '@orch/apimachinery/selectors';
import type { Logger } from '@orch/component-base/logs';
import {
  buildDisruptedPodMap,
  countHealthyPods,
  expectedPodCount,
  failSafeStatus,
  metaOf,
  nextBudgetStatus,
} from './disruption-status.js';
import type { BudgetStatus, ControllerFinder } from './disruption-status.js';
import { workloadFinders } from './pod-controller-finders.js';

type Json = Record<string, unknown>;

/**
 * The pods a budget's selector picks (LabelSelectorAsSelector): an empty selector every pod of
 * the namespace, an unset or invalid one none.
 */
export function budgetSelects(pdb: Json, pod: Json): boolean {
  const sel = (pdb['spec'] as { selector?: LabelSelectorObject | null } | undefined)?.selector;
  if (sel === undefined || sel === null) return false;
  if (metaOf(pod).namespace !== metaOf(pdb).namespace) return false;
  try {
    const labels = (pod['metadata'] as { labels?: Record<string, string> }).labels ?? {};
    return labelSelectorFromLabelSelectorObject(sel).matches(labels);
  } catch {
    return false;
  }
}

export class DisruptionController {
  readonly #client: RestClient;
  readonly #log: Logger;
  readonly #budgets: SharedInformer;
  readonly #pods: SharedInformer;
  readonly #workloads: SharedInformer[];
  readonly #finders: ControllerFinder[];
  readonly #queue = new Set<string>();
  /** Pending rechecks by budget key: when, and the timer (the earliest one is kept). */
  readonly #rechecks = new Map<string, { atMs: number; timer: NodeJS.Timeout }>();
  readonly #abort = new AbortController();
  #working = false;

  constructor(client: RestClient, log: Logger) {
    this.#client = client;
    this.#log = log.child({ controller: 'disruption' });
    const informer = (path: string): SharedInformer =>
      new SharedInformer({
        listerWatcher: new RestListerWatcher(client, path),
        name: path,
        log: this.#log,
      });
    this.#budgets = informer('/apis/policy/v1/poddisruptionbudgets');
    this.#pods = informer('/api/v1/pods');
    const rcs = informer('/api/v1/replicationcontrollers');
    const rss = informer('/apis/apps/v1/replicasets');
    const deployments = informer('/apis/apps/v1/deployments');
    const statefulSets = informer('/apis/apps/v1/statefulsets');
    this.#workloads = [rcs, rss, deployments, statefulSets];
    this.#finders = workloadFinders(
      {
        replicationControllers: (k) => rcs.get(k),
        replicaSets: (k) => rss.get(k),
        deployments: (k) => deployments.get(k),
        statefulSets: (k) => statefulSets.get(k),
      },
      client
    );
    const budget = (o: Json): void => this.#enqueue(keyOf(o));
    this.#budgets.addEventHandler({
      onAdd: budget,
      onUpdate: (_old, o) => budget(o),
      onDelete: budget,
    });
    // getPdbForPod. Upstream queues one budget of a pod (chosen arbitrarily when several select
    // it); every one that selects the pod, before or after the change, is queued here, so that
    // no budget's status waits for a later event.
    const pod = (o: Json): void => this.#enqueueBudgetsOf(o);
    this.#pods.addEventHandler({
      onAdd: pod,
      onUpdate: (old, o) => {
        this.#enqueueBudgetsOf(old);
        this.#enqueueBudgetsOf(o);
      },
      onDelete: pod,
    });
  }

  /** Runs until stop(): every informer synced, then the budgets queued are synced. */
  async run(): Promise<void> {
    const stopped = new Promise<void>((resolve) =>
      this.#abort.signal.addEventListener('abort', () => resolve(), { once: true })
    );
    await Promise.all([this.#pods, this.#budgets, ...this.#workloads].map((i) => i.start()));
    for (const b of this.#budgets.list()) this.#queue.add(keyOf(b));
    void this.#work();
    await stopped;
  }

  stop(): void {
    for (const i of [this.#pods, this.#budgets, ...this.#workloads]) i.stop();
    for (const r of this.#rechecks.values()) clearTimeout(r.timer);
    this.#rechecks.clear();
    this.#abort.abort();
  }

  get #synced(): boolean {
    return [this.#pods, this.#budgets, ...this.#workloads].every((i) => i.synced);
  }

  #enqueueBudgetsOf(pod: Json): void {
    // GetPodPodDisruptionBudgets: a pod without labels belongs to no budget.
    const labels = (pod['metadata'] as { labels?: Record<string, string> }).labels ?? {};
    if (Object.keys(labels).length === 0) return;
    for (const b of this.#budgets.list()) if (budgetSelects(b, pod)) this.#enqueue(keyOf(b));
  }

  #enqueue(key: string): void {
    this.#queue.add(key);
    if (this.#synced) void this.#work();
  }

  /** enqueuePdbForRecheck: at most one pending recheck per budget, the earliest. */
  #recheckAt(key: string, atMs: number): void {
    const pending = this.#rechecks.get(key);
    if (pending && pending.atMs <= atMs) return;
    if (pending) clearTimeout(pending.timer);
    const timer = setTimeout(
      () => {
        this.#rechecks.delete(key);
        this.#enqueue(key);
      },
      Math.max(0, atMs - Date.now())
    );
    timer.unref();
    this.#rechecks.set(key, { atMs, timer });
  }

  async #work(): Promise<void> {
    if (this.#working) return;
    this.#working = true;
    try {
      while (this.#queue.size > 0 && !this.#abort.signal.aborted) {
        const key = this.#queue.values().next().value as string;
        this.#queue.delete(key);
        try {
          await this.sync(key);
        } catch (err) {
          if (this.#abort.signal.aborted) return;
          if (!isConflict(err)) this.#log.warn('sync failed; retrying', { key, err });
          setTimeout(() => this.#enqueue(key), isConflict(err) ? 200 : 2000).unref();
        }
      }
    } finally {
      this.#working = false;
    }
  }

  /** sync: the budget's status, or the fail-safe one when it cannot be computed. */
  async sync(key: string): Promise<void> {
    const pdb = this.#budgets.get(key);
    if (!pdb) return;
    try {
      await this.#trySync(key, pdb);
    } catch (err) {
      if (isConflict(err) || isNotFound(err)) throw err;
      this.#log.error('failed to sync PodDisruptionBudget', { key, err });
      await this.#writeStatus(pdb, failSafeStatus(pdb, err, new Date()));
    }
  }

  async #trySync(key: string, pdb: Json): Promise<void> {
    const pods = this.#pods.list().filter((p) => budgetSelects(pdb, p));
    if (pods.length === 0) this.#log.debug('no matching pods found', { key });
    const { expectedCount, desiredHealthy, unmanagedPods } = await expectedPodCount(
      pdb,
      pods,
      this.#finders
    );
    if (unmanagedPods.length > 0) {
      this.#log.info('pods selected by this PodDisruptionBudget are unmanaged', {
        key,
        pods: unmanagedPods,
      });
    }
    const nowMs = Date.now();
    const { disruptedPods, recheckAtMs } = buildDisruptedPodMap(pods, pdb, nowMs);
    const currentHealthy = countHealthyPods(pods, disruptedPods, nowMs);
    const next = nextBudgetStatus(
      pdb,
      { currentHealthy, desiredHealthy, expectedCount },
      disruptedPods,
      new Date(nowMs)
    );
    if (next) await this.#writeStatus(pdb, next);
    if (recheckAtMs !== undefined) this.#recheckAt(key, recheckAtMs);
  }

  /** writePdbStatus: an update of the status subresource at the budget's resourceVersion. */
  async #writeStatus(pdb: Json, status: BudgetStatus): Promise<void> {
    const { namespace = '', name = '' } = metaOf(pdb);
    await this.#client.request(
      'PUT',
      `/apis/policy/v1/namespaces/${encodeURIComponent(namespace)}/poddisruptionbudgets/${encodeURIComponent(name)}/status`,
      { ...pdb, status }
    );
  }
}

const keyOf = (o: Json): string => `${metaOf(o).namespace ?? ''}/${metaOf(o).name ?? ''}`;
