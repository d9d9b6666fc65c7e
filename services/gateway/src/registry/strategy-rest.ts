// A subresource that reads the whole object and writes it through the kind's Store under a
// strategy of its own (k8s StatusREST, namespace FinalizeREST: a `store` whose update strategy
// is replaced). Such a write never creates the object.
import type { ApiObject } from '@orch/apimachinery/meta';
import type {
  GetOptions,
  Getter,
  RestContext,
  UpdateFunc,
  UpdateOptions,
  Updater,
} from './rest.js';
import type { Store } from './store.js';
import type { Strategy } from './strategy.js';

export class StrategyRest implements Getter, Updater {
  readonly #store: Store;

  /** store: the kind's Store; writes go through a copy of it with `strategy`. */
  constructor(store: Store, strategy: Strategy) {
    this.#store = store.withStrategy(strategy);
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
