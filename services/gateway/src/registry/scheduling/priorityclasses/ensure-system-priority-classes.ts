// system-node-critical and system-cluster-critical exist from the start (k8s
// pkg/registry/scheduling/rest AddSystemPriorityClasses, the scheduling PostStartHook): each is
// created through the Store unless it exists, retrying (1 s apart) until storage answers.
import { isAlreadyExists } from '@orch/apimachinery/errors';
import type { Logger } from '@orch/component-base/logs';
import type { Store } from '../../store.js';
import { systemPriorityClasses } from './strategy.js';

export async function ensureSystemPriorityClasses(
  priorityClasses: Store,
  log: Logger,
  signal?: AbortSignal
): Promise<void> {
  for (const pc of systemPriorityClasses) {
    const name = pc.metadata.name;
    for (let attempt = 0; !signal?.aborted; attempt++) {
      try {
        await priorityClasses.create({}, structuredClone(pc), { dryRun: false });
        log.info('created system priority class', { name });
        break;
      } catch (err) {
        if (isAlreadyExists(err)) break;
        if (attempt > 60) {
          log.error('could not create system priority class', { name, err });
          break;
        }
        await new Promise((r) => setTimeout(r, 1000));
      }
    }
  }
}
