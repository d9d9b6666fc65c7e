// The condition helpers of CustomResourceDefinitions (k8s.io/apiextensions-apiserver
// pkg/apis/apiextensions/helpers.go: SetCRDCondition, FindCRDCondition, IsCRDConditionTrue),
// shared by the gateway's CRD strategy and the apiextensions controllers.
import type {
  CustomResourceDefinitionCondition,
  CustomResourceDefinitionStatus,
} from '../types.js';

/** The finalizer that makes a deleted CRD wait until its custom objects are gone (upstream customresourcecleanup.apiextensions.k8s.io). */
export const customResourceCleanupFinalizer = 'customresourcecleanup.apiextensions.orch.io';

/** FindCRDCondition. */
export function findCRDCondition(
  status: CustomResourceDefinitionStatus | undefined,
  type: string
): CustomResourceDefinitionCondition | undefined {
  return status?.conditions?.find((c) => c.type === type);
}

/** IsCRDConditionTrue. */
export function isCRDConditionTrue(
  status: CustomResourceDefinitionStatus | undefined,
  type: string
): boolean {
  return findCRDCondition(status, type)?.status === 'True';
}

/**
 * SetCRDCondition: replaces the condition of the same type, keeping its lastTransitionTime when
 * the status did not change; a new or changed condition gets `now` (RFC 3339, whole seconds).
 */
export function setCRDCondition(
  status: CustomResourceDefinitionStatus,
  condition: CustomResourceDefinitionCondition,
  now: Date = new Date()
): void {
  const conditions = (status.conditions ??= []);
  const i = conditions.findIndex((c) => c.type === condition.type);
  const existing = i >= 0 ? conditions[i] : undefined;
  const stamp = `${now.toISOString().slice(0, 19)}Z`;
  const next: CustomResourceDefinitionCondition = {
    ...condition,
    lastTransitionTime:
      existing && existing.status === condition.status && existing.lastTransitionTime
        ? existing.lastTransitionTime
        : (condition.lastTransitionTime ?? stamp),
  };
  if (i >= 0) conditions[i] = next;
  else conditions.push(next);
}

/** RemoveCRDCondition. */
export function removeCRDCondition(status: CustomResourceDefinitionStatus, type: string): void {
  if (status.conditions) status.conditions = status.conditions.filter((c) => c.type !== type);
}
