// The Store of PriorityClasses (k8s pkg/registry/scheduling/priorityclass/storage REST.Delete):
// the system classes (`system-node-critical`, `system-cluster-critical`) cannot be deleted;
// every other delete is the generic Store's.
import { newForbidden } from '@orch/apimachinery/errors';
import type { DeleteOptions, DeleteResult, RestContext } from '../../rest.js';
import { Store } from '../../store.js';
import { systemPriorityClasses } from './strategy.js';

export class PriorityClassStore extends Store {
  override async delete(
    ctx: RestContext,
    name: string,
    opts: DeleteOptions
  ): Promise<DeleteResult> {
    if (systemPriorityClasses.some((pc) => pc.metadata.name === name)) {
      throw newForbidden(
        { group: 'scheduling.orch.io', resource: 'priorityclasses' },
        name,
        'this is a system priority class and cannot be deleted'
      );
    }
    return super.delete(ctx, name, opts);
  }
}
