// NamespaceLifecycle admission plugin (k8s plugin/pkg/admission/namespace/lifecycle), validating:
// content needs an existing namespace that is not Terminating; the system namespaces cannot be
// deleted. Namespaces are read from a cache kept by the fan-out, with a quorum read when the
// cache has not seen one yet.
import { isNotFound, newForbidden, newNotFound } from '@orch/apimachinery/errors';
import type { StatusError } from '@orch/apimachinery/errors';
import type { ResourceRegistry } from '@orch/apimachinery/registry';
import type { Getter } from '../../registry/rest.js';
import type { NamespaceCache } from '../../registry/core/namespaces/namespace-informer.js';
import { systemNamespaces } from '../../registry/core/namespaces/ensure-system-namespaces.js';
import type {
  AdmissionAttributes,
  AdmissionPlugin,
  GatewayPluginName,
  GatewayPlugins,
} from '../interfaces.js';

/** The plugin's name, as the admission flags spell it. */
export const pluginName = 'NamespaceLifecycle' satisfies GatewayPluginName;

/** Access reviews answer about a namespace, they put nothing in it (k8s accessReviewResources). */
const exempt = new Set(['authorization.orch.io/localsubjectaccessreviews']);

export function namespaceLifecycle(
  registry: ResourceRegistry,
  namespaces: Getter,
  cache: NamespaceCache | undefined
): AdmissionPlugin {
  const validate = async (a: AdmissionAttributes): Promise<void> => {
    const { group, resource } = a.resource;
    if (group === '' && resource === 'namespaces') {
      if (a.operation === 'DELETE' && systemNamespaces.includes(a.name)) {
        const gr = { group: '', resource: 'namespaces' };
        throw newForbidden(gr, a.name, 'this namespace may not be deleted');
      }
      return;
    }
    if (a.operation !== 'CREATE' || a.subresource !== '') return;
    if (exempt.has(`${group}/${resource}`)) return;
    if (!registry.lookup(group, a.resource.version, resource)?.namespaced) return;
    const ns = a.namespace;
    let namespace = cache?.get(ns);
    if (!namespace) {
      try {
        namespace = await namespaces.get({}, ns, { consistency: 'MOST_RECENT' });
      } catch (err) {
        if (isNotFound(err)) throw newNotFound({ group: '', resource: 'namespaces' }, ns);
        throw err;
      }
    }
    if (
      namespace.metadata.deletionTimestamp ||
      (namespace['status'] as { phase?: string } | undefined)?.phase === 'Terminating'
    ) {
      const err: StatusError = newForbidden(
        { group, resource },
        a.name,
        `unable to create new content in namespace ${ns} because it is being terminated`
      );
      err.status.details = {
        ...err.status.details,
        causes: [
          {
            reason: 'NamespaceTerminating',
            message: `namespace ${ns} is being terminated`,
            field: 'metadata.namespace',
          },
        ],
      };
      throw err;
    }
  };
  return {
    name: pluginName,
    handles: (op) => op === 'CREATE' || op === 'DELETE',
    validate,
  };
}

/** Registers the plugin (upstream's Register). */
export function register(plugins: GatewayPlugins): void {
  plugins.register(pluginName, (d) =>
    namespaceLifecycle(d.registry, d.namespaces, d.namespaceCache)
  );
}
