// default, orch-system and orch-public exist from the start (k8s system namespaces controller).
import type { Logger } from '@orch/component-base/logs';
import { createUntilExists } from '../../create-until-exists.js';
import type { RetryPauses } from '../../create-until-exists.js';
import type { Store } from '../../store.js';

/** The namespaces that exist from the start and cannot be deleted (NamespaceLifecycle). */
export const systemNamespaces = ['default', 'orch-system', 'orch-public'];

/**
 * Creates each system namespace through the Store, retrying until storage answers; true once
 * they all exist (false only when stopped first).
 */
export function ensureSystemNamespaces(
  namespaces: Pick<Store, 'create'>,
  log: Logger,
  signal?: AbortSignal,
  pauses?: RetryPauses
): Promise<boolean> {
  const objects = systemNamespaces.map((name) => ({
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name },
  }));
  return createUntilExists(namespaces, objects, 'system namespace', log, signal, pauses);
}
