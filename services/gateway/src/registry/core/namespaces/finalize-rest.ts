// The namespace finalize subresource (k8s namespace FinalizeREST): a write changes only
// spec.finalizers; the namespace controller removes its finalizer through it, after which the
// Store removes the Terminating namespace.
import { keepManagedFields } from '../../status-rest.js';
import { StrategyRest } from '../../strategy-rest.js';
import type { Store } from '../../store.js';
import type { Strategy } from '../../strategy.js';
import { namespaceStrategy } from './strategy.js';

/** k8s namespace finalizeStrategy: the stored namespace with the written spec.finalizers. */
export const namespaceFinalizeStrategy: Strategy = {
  ...namespaceStrategy,
  allowCreateOnUpdate: false,
  keepsGeneration: true,
  prepareForUpdate(obj, old) {
    const spec = (obj['spec'] ?? {}) as { finalizers?: unknown };
    const finalizers = Array.isArray(spec.finalizers) ? spec.finalizers : [];
    const managedFields = obj.metadata?.managedFields;
    for (const k of Object.keys(obj)) delete obj[k];
    Object.assign(obj, structuredClone(old));
    obj['spec'] = { ...((old['spec'] as object | undefined) ?? {}), finalizers };
    keepManagedFields(obj, managedFields);
  },
};

/** k8s namespace FinalizeREST: the namespaces' Store with the finalize strategy. */
export class FinalizeRest extends StrategyRest {
  constructor(namespaces: Store) {
    super(namespaces, namespaceFinalizeStrategy);
  }
}
