// The namespace finalize subresource (k8s namespace FinalizeREST): a write changes only
// spec.finalizers; the namespace controller removes its finalizer through it, after which the
// Store removes the Terminating namespace.
import type { ApiObject } from '@orch/apimachinery/meta';
import type {
  GetOptions,
  Getter,
  RestContext,
  UpdateFunc,
  UpdateOptions,
  Updater,
} from '../../rest.js';
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
    for (const k of Object.keys(obj)) delete obj[k];
    Object.assign(obj, structuredClone(old));
    obj['spec'] = { ...((old['spec'] as object | undefined) ?? {}), finalizers };
  },
};

export class FinalizeRest implements Getter, Updater {
  readonly #store: Store;

  constructor(namespaces: Store) {
    this.#store = namespaces.withStrategy(namespaceFinalizeStrategy);
  }

  get objectKind(): Store['objectKind'] {
    return this.#store.objectKind;
  }

  get(ctx: RestContext, name: string, opts: GetOptions): Promise<ApiObject> {
    return this.#store.get(ctx, name, opts);
  }

  update(
    ctx: RestContext,
    name: string,
    objInfo: UpdateFunc,
    opts: UpdateOptions
  ): Promise<{ object: ApiObject; created: boolean }> {
    return this.#store.update(ctx, name, objInfo, { ...opts, forceAllowCreate: false });
  }
}
