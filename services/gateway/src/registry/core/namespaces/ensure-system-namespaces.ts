// default, orch-system and orch-public exist from the start (k8s system namespaces controller).
import { isAlreadyExists } from '@orch/apimachinery/errors';
import type { Logger } from '@orch/component-base/logs';
import type { Store } from '../../store.js';

/** The namespaces that exist from the start and cannot be deleted (NamespaceLifecycle). */
export const systemNamespaces = ['default', 'orch-system', 'orch-public'];

/** Creates each system namespace through the Store, retrying (1 s apart) until storage answers. */
export async function ensureSystemNamespaces(
  namespaces: Store,
  log: Logger,
  signal?: AbortSignal
): Promise<void> {
  for (const name of systemNamespaces) {
    for (let attempt = 0; !signal?.aborted; attempt++) {
      try {
        const namespace = { apiVersion: 'v1', kind: 'Namespace', metadata: { name } };
        await namespaces.create({}, namespace, { dryRun: false });
        log.info('created system namespace', { name });
        break;
      } catch (err) {
        if (isAlreadyExists(err)) break;
        if (attempt > 60) {
          log.error('could not create system namespace', { name, err });
          break;
        }
        await new Promise((r) => setTimeout(r, 1000));
      }
    }
  }
}
