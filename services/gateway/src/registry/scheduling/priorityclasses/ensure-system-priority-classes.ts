// system-node-critical and system-cluster-critical exist from the start (k8s
// pkg/registry/scheduling/rest AddSystemPriorityClasses, the scheduling PostStartHook): each is
// created through the Store unless it exists, retrying until storage answers.
import type { Logger } from '@orch/component-base/logs';
import { createUntilExists } from '../../create-until-exists.js';
import type { Store } from '../../store.js';
import { systemPriorityClasses } from './strategy.js';

/** True once both exist (false only when stopped first). */
export function ensureSystemPriorityClasses(
  priorityClasses: Pick<Store, 'create'>,
  log: Logger,
  signal?: AbortSignal
): Promise<boolean> {
  return createUntilExists(
    priorityClasses,
    systemPriorityClasses,
    'system priority class',
    log,
    signal
  );
}
