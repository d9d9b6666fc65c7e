// Namespace lifecycle (k8s NamespaceLifecycle admission): content needs an existing namespace
// that is not Terminating; the system namespaces cannot be deleted. Namespaces are read from a
// cache kept by the fan-out, with a quorum read when the cache has not seen one yet.
import { isNotFound, newForbidden, newNotFound } from '@orch/apimachinery/errors';
import type { StatusError } from '@orch/apimachinery/errors';
import type { ResourceDefinition } from '@orch/apimachinery/registry';
import type { Store, ValidateObjectFunc } from './store.js';
import type { Obj } from './strategy.js';

export const systemNamespaces = ['default', 'orch-system', 'orch-public'];

export interface NamespaceCache {
  get(name: string): Obj | undefined;
}

export function namespaceLifecycle(def: ResourceDefinition, namespaces: Store, cache: NamespaceCache | undefined): ValidateObjectFunc {
  return async (obj, _old, operation) => {
    const name = obj.metadata.name ?? '';
    if (def.group === '' && def.resource === 'namespaces') {
      if (operation === 'DELETE' && systemNamespaces.includes(name)) {
        throw newForbidden({ group: '', resource: 'namespaces' }, name, 'this namespace may not be deleted');
      }
      return;
    }
    if (!def.namespaced || operation !== 'CREATE') return;
    const ns = obj.metadata.namespace ?? '';
    let namespace = cache?.get(ns);
    if (!namespace) {
      try {
        namespace = await namespaces.get(undefined, ns, { consistency: 'MOST_RECENT' });
      } catch (err) {
        if (isNotFound(err)) throw newNotFound({ group: '', resource: 'namespaces' }, ns);
        throw err;
      }
    }
    if (namespace.metadata.deletionTimestamp || (namespace['status'] as { phase?: string } | undefined)?.phase === 'Terminating') {
      const err: StatusError = newForbidden(
        { group: def.group, resource: def.resource },
        name,
        `unable to create new content in namespace ${ns} because it is being terminated`
      );
      err.status.details = { ...err.status.details, causes: [{ reason: 'NamespaceTerminating', message: `namespace ${ns} is being terminated`, field: 'metadata.namespace' }] };
      throw err;
    }
  };
}
