// The status subresource (k8s StatusREST): reads the whole object, writes only its status,
// through the Store's update loop with the kind's status strategy (and the managedFields the
// write recorded).
import type { ApiObject } from '@orch/apimachinery/meta';
import { StrategyRest } from './strategy-rest.js';
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
      const managedFields = obj.metadata?.managedFields;
      for (const k of Object.keys(obj)) delete obj[k];
      Object.assign(obj, structuredClone(old));
      if (status === undefined) delete obj['status'];
      else obj['status'] = status;
      keepManagedFields(obj, managedFields);
    },
    validateUpdate,
  };
}

/**
 * The managedFields the write recorded (the handler's field manager) replace the stored ones,
 * as upstream's status strategies keep the new object's metadata.managedFields.
 */
export function keepManagedFields(
  obj: ApiObject,
  managedFields: ApiObject['metadata']['managedFields']
): void {
  if (managedFields === undefined) delete obj.metadata.managedFields;
  else obj.metadata.managedFields = managedFields;
}

/** k8s StatusREST: the kind's Store with its status strategy. */
export class StatusRest extends StrategyRest {
  constructor(store: Store, strategy: Strategy = statusStrategy(store.strategy)) {
    super(store, strategy);
  }
}
