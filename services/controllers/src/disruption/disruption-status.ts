// What the disruption controller computes for a PodDisruptionBudget, as pure functions (k8s
// pkg/controller/disruption: getExpectedPodCount, countHealthyPods, buildDisruptedPodMap,
// updatePdbStatus; component-helpers apps/poddisruptionbudget: UpdateDisruptionAllowedCondition,
// ConditionsAreUpToDate; apimachinery meta.SetStatusCondition; intstr.GetScaledValueFromIntOrPercent).
import { formatTimestamp } from '@orch/apimachinery/meta';

type Json = Record<string, unknown>;

/** DeletionTimeout: how long an eviction's entry in disruptedPods waits for the pod's deletion. */
export const deletionTimeoutMs = 2 * 60_000;

/** policy/v1 DisruptionAllowedCondition and its reasons. */
export const disruptionAllowedCondition = 'DisruptionAllowed';
export const sufficientPodsReason = 'SufficientPods';
export const insufficientPodsReason = 'InsufficientPods';
export const syncFailedReason = 'SyncFailed';

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
}

export interface Condition {
  type: string;
  status: string;
  observedGeneration?: number;
  lastTransitionTime?: string;
  reason: string;
  message: string;
}

export interface BudgetStatus {
  observedGeneration?: number;
  disruptedPods?: Record<string, string>;
  disruptionsAllowed?: number;
  currentHealthy?: number;
  desiredHealthy?: number;
  expectedPods?: number;
  conditions?: Condition[];
}

/** A controller of pods and its scale (controllerAndScale). */
export interface ControllerAndScale {
  uid: string;
  scale: number;
}

/** Finds the controller an owner reference names and its scale, undefined when none (podControllerFinder). */
export type ControllerFinder = (
  ref: OwnerReference,
  namespace: string
) => Promise<ControllerAndScale | undefined>;

interface Meta {
  name?: string;
  namespace?: string;
  generation?: number;
  deletionTimestamp?: string;
  ownerReferences?: OwnerReference[];
}
export const metaOf = (o: Json): Meta => (o['metadata'] ?? {}) as Meta;
const specOf = (pdb: Json): { minAvailable?: unknown; maxUnavailable?: unknown } =>
  (pdb['spec'] ?? {}) as { minAvailable?: unknown; maxUnavailable?: unknown };
export const statusOf = (pdb: Json): BudgetStatus => (pdb['status'] ?? {}) as BudgetStatus;

/** metav1.GetControllerOf. */
export const controllerOf = (o: Json): OwnerReference | undefined =>
  (metaOf(o).ownerReferences ?? []).find((r) => r.controller === true);

/** podutil.IsPodReady: the Ready condition is True. */
export function isPodReady(pod: Json): boolean {
  const conditions = (pod['status'] as { conditions?: Json[] } | undefined)?.conditions ?? [];
  return conditions.some((c) => c['type'] === 'Ready' && c['status'] === 'True');
}

/** intstr.GetScaledValueFromIntOrPercent, with upstream's error messages. */
export function scaledValueFromIntOrPercent(
  value: unknown,
  total: number,
  roundUp: boolean
): number {
  if (typeof value === 'number') return value;
  if (typeof value !== 'string') {
    throw new Error('invalid value for IntOrString: invalid type: neither int nor percentage');
  }
  if (!value.endsWith('%')) {
    throw new Error('invalid value for IntOrString: invalid type: string is not a percentage');
  }
  const digits = value.slice(0, -1);
  if (!/^[+-]?\d+$/.test(digits)) {
    throw new Error(
      `invalid value for IntOrString: invalid value ${JSON.stringify(value)}: strconv.Atoi: parsing ${JSON.stringify(digits)}: invalid syntax`
    );
  }
  const scaled = (Number(digits) * total) / 100;
  return roundUp ? Math.ceil(scaled) : Math.floor(scaled);
}

/**
 * getExpectedScale: the sum of the scales of the pods' controllers (each counted once). A pod
 * without a controller is unmanaged; a controller no finder knows is an error.
 */
export async function expectedScale(
  pods: readonly Json[],
  finders: readonly ControllerFinder[]
): Promise<{ expectedCount: number; unmanagedPods: string[] }> {
  const controllerScale = new Map<string, number>();
  const unmanagedPods: string[] = [];
  for (const pod of pods) {
    const ref = controllerOf(pod);
    if (!ref) {
      unmanagedPods.push(metaOf(pod).name ?? '');
      continue;
    }
    if (controllerScale.has(ref.uid)) continue;
    let found: ControllerAndScale | undefined;
    for (const finder of finders) {
      found = await finder(ref, metaOf(pod).namespace ?? '');
      if (found) break;
    }
    if (!found) throw new Error(`found no controllers for pod ${JSON.stringify(metaOf(pod).name)}`);
    controllerScale.set(found.uid, found.scale);
  }
  let expectedCount = 0;
  for (const scale of controllerScale.values()) expectedCount += scale;
  return { expectedCount, unmanagedPods };
}

/**
 * getExpectedPodCount: maxUnavailable (int or percent) and a percent minAvailable count the
 * controllers' scale; an integer minAvailable counts the selected pods.
 */
export async function expectedPodCount(
  pdb: Json,
  pods: readonly Json[],
  finders: readonly ControllerFinder[]
): Promise<{ expectedCount: number; desiredHealthy: number; unmanagedPods: string[] }> {
  const { minAvailable, maxUnavailable } = specOf(pdb);
  if (maxUnavailable !== undefined && maxUnavailable !== null) {
    const { expectedCount, unmanagedPods } = await expectedScale(pods, finders);
    const max = scaledValueFromIntOrPercent(maxUnavailable, expectedCount, true);
    return { expectedCount, desiredHealthy: Math.max(0, expectedCount - max), unmanagedPods };
  }
  if (typeof minAvailable === 'number') {
    return { expectedCount: pods.length, desiredHealthy: minAvailable, unmanagedPods: [] };
  }
  if (typeof minAvailable === 'string') {
    const { expectedCount, unmanagedPods } = await expectedScale(pods, finders);
    const desiredHealthy = scaledValueFromIntOrPercent(minAvailable, expectedCount, true);
    return { expectedCount, desiredHealthy, unmanagedPods };
  }
  return { expectedCount: 0, desiredHealthy: 0, unmanagedPods: [] };
}

/**
 * buildDisruptedPodMap: the entries of status.disruptedPods still waiting for their pod's
 * deletion. Pods being deleted or gone leave the map, and so do entries older than
 * DeletionTimeout (the eviction's delete never came). recheckAtMs is when the oldest entry
 * left expires, for the budget to be synced again then.
 */
export function buildDisruptedPodMap(
  pods: readonly Json[],
  pdb: Json,
  nowMs: number
): { disruptedPods: Record<string, string>; recheckAtMs?: number } {
  const previous = statusOf(pdb).disruptedPods;
  const disruptedPods: Record<string, string> = {};
  let recheckAtMs: number | undefined;
  if (!previous) return { disruptedPods };
  for (const pod of pods) {
    const { name = '', deletionTimestamp } = metaOf(pod);
    if (deletionTimestamp) continue;
    const disruptionTime = previous[name];
    if (disruptionTime === undefined) continue;
    const expectedDeletion = Date.parse(disruptionTime) + deletionTimeoutMs;
    if (expectedDeletion < nowMs) continue;
    if (recheckAtMs === undefined || expectedDeletion < recheckAtMs) recheckAtMs = expectedDeletion;
    disruptedPods[name] = disruptionTime;
  }
  return recheckAtMs === undefined ? { disruptedPods } : { disruptedPods, recheckAtMs };
}

/** countHealthyPods: ready pods that are neither being deleted nor just evicted. */
export function countHealthyPods(
  pods: readonly Json[],
  disruptedPods: Record<string, string>,
  nowMs: number
): number {
  let healthy = 0;
  for (const pod of pods) {
    const { name = '', deletionTimestamp } = metaOf(pod);
    if (deletionTimestamp) continue;
    const disrupted = disruptedPods[name];
    if (disrupted !== undefined && Date.parse(disrupted) + deletionTimeoutMs > nowMs) continue;
    if (isPodReady(pod)) healthy++;
  }
  return healthy;
}

/** meta.SetStatusCondition: lastTransitionTime changes only with the status. */
export function setStatusCondition(conditions: Condition[], next: Condition, now: Date): void {
  const i = conditions.findIndex((c) => c.type === next.type);
  const prev = i >= 0 ? conditions[i] : undefined;
  const lastTransitionTime =
    prev && prev.status === next.status && prev.lastTransitionTime
      ? prev.lastTransitionTime
      : (next.lastTransitionTime ?? formatTimestamp(now));
  const condition = { ...next, lastTransitionTime };
  if (i >= 0) conditions[i] = condition;
  else conditions.push(condition);
}

/** pdbhelper.UpdateDisruptionAllowedCondition. */
export function updateDisruptionAllowedCondition(status: BudgetStatus, now: Date): void {
  status.conditions ??= [];
  const allowed = (status.disruptionsAllowed ?? 0) > 0;
  setStatusCondition(
    status.conditions,
    {
      type: disruptionAllowedCondition,
      status: allowed ? 'True' : 'False',
      reason: allowed ? sufficientPodsReason : insufficientPodsReason,
      message: '',
      observedGeneration: status.observedGeneration ?? 0,
    },
    now
  );
}

/** pdbhelper.ConditionsAreUpToDate. */
export function conditionsAreUpToDate(pdb: Json): boolean {
  const status = statusOf(pdb);
  const cond = (status.conditions ?? []).find((c) => c.type === disruptionAllowedCondition);
  if (!cond) return false;
  if ((status.observedGeneration ?? 0) !== (metaOf(pdb).generation ?? 0)) return false;
  if ((status.disruptionsAllowed ?? 0) > 0) {
    return cond.status === 'True' && cond.reason === sufficientPodsReason;
  }
  return cond.status === 'False' && cond.reason === insufficientPodsReason;
}

const sameMap = (a: Record<string, string> | undefined, b: Record<string, string>): boolean => {
  const ak = Object.keys(a ?? {});
  return ak.length === Object.keys(b).length && ak.every((k) => a?.[k] === b[k]);
};

/**
 * updatePdbStatus: the new status, or undefined when the budget's is already this one. No
 * disruption is allowed while the budget expects no pods (its first pods may not be counted yet).
 */
export function nextBudgetStatus(
  pdb: Json,
  counts: { currentHealthy: number; desiredHealthy: number; expectedCount: number },
  disruptedPods: Record<string, string>,
  now: Date
): BudgetStatus | undefined {
  const { currentHealthy, desiredHealthy, expectedCount } = counts;
  let disruptionsAllowed = currentHealthy - desiredHealthy;
  if (expectedCount <= 0 || disruptionsAllowed <= 0) disruptionsAllowed = 0;
  const status = statusOf(pdb);
  const generation = metaOf(pdb).generation ?? 0;
  if (
    (status.currentHealthy ?? 0) === currentHealthy &&
    (status.desiredHealthy ?? 0) === desiredHealthy &&
    (status.expectedPods ?? 0) === expectedCount &&
    (status.disruptionsAllowed ?? 0) === disruptionsAllowed &&
    sameMap(status.disruptedPods, disruptedPods) &&
    (status.observedGeneration ?? 0) === generation &&
    conditionsAreUpToDate(pdb)
  ) {
    return undefined;
  }
  const next: BudgetStatus = {
    currentHealthy,
    desiredHealthy,
    expectedPods: expectedCount,
    disruptionsAllowed,
    disruptedPods,
    observedGeneration: generation,
    conditions: structuredClone(status.conditions ?? []),
  };
  updateDisruptionAllowedCondition(next, now);
  return next;
}

/**
 * failSafe: no disruption allowed, the DisruptionAllowed condition False with reason SyncFailed
 * and the error as its message (the eviction then refuses rather than guess).
 */
export function failSafeStatus(pdb: Json, err: unknown, now: Date): BudgetStatus {
  const status = structuredClone(statusOf(pdb));
  status.disruptionsAllowed = 0;
  status.conditions ??= [];
  setStatusCondition(
    status.conditions,
    {
      type: disruptionAllowedCondition,
      status: 'False',
      reason: syncFailedReason,
      message: err instanceof Error ? err.message : String(err),
      observedGeneration: status.observedGeneration ?? 0,
    },
    now
  );
  return status;
}
