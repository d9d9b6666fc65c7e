// The eviction subresource of pods (k8s pkg/registry/core/pod/storage/eviction.go EvictionREST):
// a policy/v1 Eviction created on pods/<name>/eviction deletes the pod unless the one
// PodDisruptionBudget selecting it allows no disruption: then 429 with upstream's message and a
// DisruptionBudget cause. An allowed eviction takes one disruption from the budget (its status,
// written with the budget's resourceVersion as precondition, again on a lost race) before the
// pod is deleted. Pods that are pending, finished or already being deleted need no budget.
import {
  isConflict,
  newBadRequest,
  newForbidden,
  newInternalError,
  newSuccess,
  newTooManyRequests,
} from '@orch/apimachinery/errors';
import type { StatusError } from '@orch/apimachinery/errors';
import type { ApiObject } from '@orch/apimachinery/meta';
import { now } from '@orch/apimachinery/meta';
import { labelSelectorFromLabelSelectorObject } from '@orch/apimachinery/selectors';
import type { LabelSelectorObject } from '@orch/apimachinery/selectors';
import type { CreateOptions, NamedCreater, ObjectKind, RestContext } from '../../rest.js';
import { restKey } from '../../rest.js';
import type { StoreLookup } from '../../rest-storage-provider.js';
import { statusStrategy } from '../../status-rest.js';
import type { Store } from '../../store.js';

type Json = Record<string, unknown>;
const objectAt = (o: unknown, k: string): Json => {
  const v = typeof o === 'object' && o !== null ? (o as Json)[k] : undefined;
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : {};
};
const num = (v: unknown): number => (typeof v === 'number' ? v : 0);

/** policyv1.DisruptionBudgetCause. */
export const disruptionBudgetCause = 'DisruptionBudget';
/** MaxDisruptedPodSize: evictions the budget's controller has not confirmed yet. */
export const maxDisruptedPodSize = 2000;
/** EvictionsRetry: attempts on a lost race for the pod or the budget. */
const evictionRetries = 5;

const evictionKind: ObjectKind = {
  group: 'policy',
  version: 'v1',
  kind: 'Eviction',
  namespaced: true,
};

const pdbResource = { group: 'policy', resource: 'poddisruptionbudget' };

function tooManyRequests(message: string, retryAfter: number, cause: string): StatusError {
  const err = newTooManyRequests(message, retryAfter);
  err.status.details = {
    ...(err.status.details ?? {}),
    causes: [{ reason: disruptionBudgetCause, message: cause }],
  };
  return err;
}

/** canIgnorePDB: a pod that is pending, finished or already being deleted. */
function canIgnoreBudget(pod: ApiObject): boolean {
  const phase = objectAt(pod, 'status')['phase'];
  return (
    phase === 'Succeeded' ||
    phase === 'Failed' ||
    phase === 'Pending' ||
    phase === undefined ||
    Boolean(pod.metadata.deletionTimestamp)
  );
}

const isPodReady = (pod: ApiObject): boolean => {
  const conditions = objectAt(pod, 'status')['conditions'];
  return (Array.isArray(conditions) ? (conditions as Json[]) : []).some(
    (c) => c['type'] === 'Ready' && c['status'] === 'True'
  );
};

/**
 * Whether a budget selects a pod. In policy/v1 an empty selector ({}) selects every pod of the
 * namespace; an unset or invalid one selects none (the spec's removed-versions table).
 */
function selects(pdb: ApiObject, pod: ApiObject): boolean {
  const sel = objectAt(pdb, 'spec')['selector'];
  if (sel === undefined || sel === null) return false;
  try {
    const selector = labelSelectorFromLabelSelectorObject(sel as LabelSelectorObject);
    return selector.matches(pod.metadata.labels ?? {});
  } catch {
    return false;
  }
}

export class EvictionRest implements NamedCreater {
  readonly #pods: Store;
  readonly #pdbs: Store;
  readonly #pdbStatus: Store;

  constructor(pods: Store, pdbs: Store) {
    this.#pods = pods;
    this.#pdbs = pdbs;
    this.#pdbStatus = pdbs.withStrategy(statusStrategy(pdbs.strategy));
  }

  get objectKind(): ObjectKind {
    return evictionKind;
  }

  async createNamed(
    ctx: RestContext,
    name: string,
    eviction: ApiObject,
    opts: CreateOptions
  ): Promise<ApiObject> {
    const meta = eviction.metadata ?? {};
    if (meta.name && meta.name !== name) {
      throw newBadRequest('name in URL does not match name in Eviction object');
    }
    if (meta.namespace && meta.namespace !== ctx.namespace) {
      throw newBadRequest('namespace in URL does not match namespace in Eviction object');
    }
    await opts.createValidation?.(eviction, undefined);
    const deleteOptions = objectAt(eviction, 'deleteOptions');
    const pre = objectAt(deleteOptions, 'preconditions');
    const dryRun =
      opts.dryRun ||
      (Array.isArray(deleteOptions['dryRun']) && deleteOptions['dryRun'].includes('All'));
    for (let attempt = 0; ; attempt++) {
      const pod = await this.#pods.get(ctx, name, { consistency: 'MOST_RECENT' });
      const preconditions: { uid?: string; resourceVersion?: string } = {};
      if (typeof pre['uid'] === 'string' && pre['uid']) preconditions.uid = pre['uid'];
      if (typeof pre['resourceVersion'] === 'string' && pre['resourceVersion'])
        preconditions.resourceVersion = pre['resourceVersion'];
      try {
        if (!canIgnoreBudget(pod)) {
          const pinPod = await this.#checkBudgets(ctx, pod, dryRun);
          // A pod deleted without taking from the budget must be the one checked.
          if (pinPod && !preconditions.resourceVersion)
            preconditions.resourceVersion = pod.metadata.resourceVersion ?? '';
        }
        await this.#pods.delete(ctx, name, { dryRun, preconditions });
      } catch (err) {
        const pinned = pre['resourceVersion'] !== undefined && pre['resourceVersion'] !== '';
        if (isConflict(err) && !pinned && attempt < evictionRetries) continue;
        throw err;
      }
      return { ...newSuccess(), code: 201 };
    }
  }

  /**
   * The budget check: none or one budget selects the pod (more is an error, as upstream). Answers
   * whether the pod is deleted without taking from the budget (not ready, budget healthy).
   */
  async #checkBudgets(ctx: RestContext, pod: ApiObject, dryRun: boolean): Promise<boolean> {
    const list = await this.#pdbs.list(ctx, { consistency: 'MOST_RECENT' });
    const pdbs = list.items.filter((p) => selects(p, pod));
    if (pdbs.length > 1) {
      throw newInternalError(
        new Error(
          'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.'
        )
      );
    }
    let pdb = pdbs[0];
    if (!pdb) return false;
    const ready = isPodReady(pod);
    const spec = objectAt(pdb, 'spec');
    const status = objectAt(pdb, 'status');
    if (!ready && spec['unhealthyPodEvictionPolicy'] === 'AlwaysAllow') return true;
    if (
      !ready &&
      num(status['currentHealthy']) >= num(status['desiredHealthy']) &&
      num(status['desiredHealthy']) > 0
    )
      return true;
    for (let attempt = 0; ; attempt++) {
      try {
        await this.#checkAndDecrement(ctx, pod, pdb, dryRun);
        return false;
      } catch (err) {
        if (!isConflict(err) || attempt >= evictionRetries) throw err;
        pdb = await this.#pdbs.get(ctx, pdb.metadata.name ?? '', { consistency: 'MOST_RECENT' });
      }
    }
  }

  /** checkAndDecrement: one disruption taken from the budget, or 429 when none is left. */
  async #checkAndDecrement(
    ctx: RestContext,
    pod: ApiObject,
    pdb: ApiObject,
    dryRun: boolean
  ): Promise<void> {
    const name = pdb.metadata.name ?? '';
    const status = objectAt(pdb, 'status');
    if (num(status['observedGeneration']) < (pdb.metadata.generation ?? 0)) {
      throw tooManyRequests(
        "Cannot evict pod as it would violate the pod's disruption budget.",
        10,
        `The disruption budget ${name} is still being processed by the server.`
      );
    }
    const allowed = num(status['disruptionsAllowed']);
    if (allowed < 0) throw newForbidden(pdbResource, name, 'pdb disruptions allowed is negative');
    if (Object.keys(objectAt(status, 'disruptedPods')).length > maxDisruptedPodSize) {
      throw newForbidden(
        pdbResource,
        name,
        'DisruptedPods map too big - too many evictions not confirmed by PDB controller'
      );
    }
    if (allowed === 0) {
      throw tooManyRequests(
        "Cannot evict pod as it would violate the pod's disruption budget.",
        0,
        `The disruption budget ${name} needs ${num(status['desiredHealthy'])} healthy pods and has ${num(status['currentHealthy'])} currently`
      );
    }
    if (dryRun) return;
    const next = structuredClone(pdb);
    const nextStatus = (next['status'] ??= {}) as Json;
    nextStatus['disruptionsAllowed'] = allowed - 1;
    if (allowed - 1 === 0) updateDisruptionAllowedCondition(nextStatus, next.metadata.generation);
    const disrupted = (nextStatus['disruptedPods'] = { ...objectAt(status, 'disruptedPods') });
    disrupted[pod.metadata.name ?? ''] = now();
    await this.#pdbStatus.update(ctx, name, () => next, { dryRun: false });
  }
}

/** pdbhelper.UpdateDisruptionAllowedCondition for a budget with no disruption left. */
function updateDisruptionAllowedCondition(status: Json, generation: number | undefined): void {
  const conditions = Array.isArray(status['conditions'])
    ? [...(status['conditions'] as Json[])]
    : [];
  const i = conditions.findIndex((c) => c['type'] === 'DisruptionAllowed');
  const prev = i >= 0 ? conditions[i] : undefined;
  const condition: Json = {
    type: 'DisruptionAllowed',
    status: 'False',
    reason: 'InsufficientPods',
    message: '',
    observedGeneration: generation ?? 0,
    lastTransitionTime: prev?.['status'] === 'False' ? prev['lastTransitionTime'] : now(),
  };
  if (i >= 0) conditions[i] = condition;
  else conditions.push(condition);
  status['conditions'] = conditions;
}

/** The eviction REST of the pods Store, reading budgets through the PodDisruptionBudget Store. */
export function evictionRestFor(pods: Store, stores: StoreLookup): EvictionRest | undefined {
  const pdbs = stores.get(
    restKey({ group: 'policy', version: 'v1', resource: 'poddisruptionbudgets' })
  );
  return pdbs && new EvictionRest(pods, pdbs);
}
