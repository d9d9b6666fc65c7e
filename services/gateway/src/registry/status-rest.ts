// The status subresource (k8s StatusREST): reads the whole object, writes only its status,
// through the Store's update loop with the kind's status strategy.
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

/**
 * The status strategy of a kind (k8s <kind>StatusStrategy): a write keeps everything of the
 * stored object but status (metadata included), creates nothing, raises no generation, and is
 * validated by validateUpdate (the kind's own unless it passes one for its status).
 */
export function statusStrategy(main: Strategy, validateUpdate = main.validateUpdate): Strategy {
  return {
    ...main,
    allowCreateOnUpdate: false,
    keepsGeneration: true,
    prepareForUpdate(obj, old) {
      const status = obj['status'];
      for (const k of Object.keys(obj)) delete obj[k];
      Object.assign(obj, structuredClone(old));
      if (status === undefined) delete obj['status'];
      else obj['status'] = status;
    },
    validateUpdate,
  };
}

export class StatusRest implements Getter, Updater {
  readonly #store: Store;

  /** store: the kind's Store; its status writes go through a copy with the status strategy. */
  constructor(store: Store, strategy: Strategy = statusStrategy(store.strategy)) {
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
