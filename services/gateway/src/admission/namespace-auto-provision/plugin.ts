// NamespaceAutoProvision admission plugin (k8s plugin/pkg/admission/namespace/autoprovision),
// mutating: creating namespaced content in a namespace that does not exist creates the
// namespace first (through the namespaces Store, as the gateway creates its system namespaces;
// upstream uses its loopback client). A namespace created meanwhile by someone else is fine.
// Access reviews put nothing in a namespace and are left alone; a dry run creates nothing.
import { isAlreadyExists, isNotFound, newForbidden } from '@orch/apimachinery/errors';
import type { ResourceRegistry } from '@orch/apimachinery/registry';
import type { Creater, Getter } from '../../registry/rest.js';
import type { NamespaceCache } from '../../registry/core/namespaces/namespace-informer.js';
import type {
  AdmissionAttributes,
  AdmissionPlugin,
  GatewayPluginName,
  GatewayPlugins,
} from '../interfaces.js';

/** The plugin's name, as the admission flags spell it. */
export const pluginName = 'NamespaceAutoProvision' satisfies GatewayPluginName;

const accessReviews = new Set(['authorization.orch.io/localsubjectaccessreviews']);

export function namespaceAutoProvision(
  registry: ResourceRegistry,
  namespaces: Getter & Creater,
  cache: NamespaceCache | undefined
): AdmissionPlugin {
  return {
    name: pluginName,
    handles: (op) => op === 'CREATE',
    async admit(a: AdmissionAttributes) {
      const { group, resource, version } = a.resource;
      if (!a.namespace || a.dryRun) return;
      if (group === '' && resource === 'namespaces') return;
      if (accessReviews.has(`${group}/${resource}`)) return;
      if (!registry.lookup(group, version, resource)?.namespaced) return;
      if (cache?.get(a.namespace)) return;
      try {
        await namespaces.get({}, a.namespace, { consistency: 'MOST_RECENT' });
        return;
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
      try {
        const namespace = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: a.namespace } };
        await namespaces.create({}, namespace, { dryRun: false });
      } catch (err) {
        if (isAlreadyExists(err)) return;
        throw newForbidden(
          { group, resource },
          a.name,
          err instanceof Error ? err.message : String(err)
        );
      }
    },
  };
}

/** Registers the plugin (upstream's Register). */
export function register(plugins: GatewayPlugins): void {
  plugins.register(pluginName, (d) =>
    namespaceAutoProvision(d.registry, d.namespaces, d.namespaceCache)
  );
}
