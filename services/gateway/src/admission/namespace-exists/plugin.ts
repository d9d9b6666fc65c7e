// NamespaceExists admission plugin (k8s plugin/pkg/admission/namespace/exists), validating: a
// write of namespaced content (create, update, delete) needs its namespace to exist, else it
// fails with `namespaces "<ns>" not found`. Namespaces are read from the gateway's namespace
// cache, with a quorum read when the cache has not seen the namespace.
import { isNotFound, newNotFound } from '@orch/apimachinery/errors';
import type { ResourceRegistry } from '@orch/apimachinery/registry';
import type { Getter } from '../../registry/rest.js';
import type { NamespaceCache } from '../../registry/core/namespaces/namespace-informer.js';
import type {
  AdmissionAttributes,
  AdmissionPlugin,
  GatewayPluginName,
  GatewayPlugins,
} from '../interfaces.js';

/** The plugin's name, as the admission flags spell it. */
export const pluginName = 'NamespaceExists' satisfies GatewayPluginName;

export function namespaceExists(
  registry: ResourceRegistry,
  namespaces: Getter,
  cache: NamespaceCache | undefined
): AdmissionPlugin {
  return {
    name: pluginName,
    handles: (op) => op === 'CREATE' || op === 'UPDATE' || op === 'DELETE',
    async validate(a: AdmissionAttributes) {
      const { group, resource, version } = a.resource;
      if (!a.namespace) return;
      if (group === '' && resource === 'namespaces') return;
      if (!registry.lookup(group, version, resource)?.namespaced) return;
      if (cache?.get(a.namespace)) return;
      try {
        await namespaces.get({}, a.namespace, { consistency: 'MOST_RECENT' });
      } catch (err) {
        if (isNotFound(err)) throw newNotFound({ group: '', resource: 'namespaces' }, a.namespace);
        throw err;
      }
    },
  };
}

/** Registers the plugin (upstream's Register). */
export function register(plugins: GatewayPlugins): void {
  plugins.register(pluginName, (d) => namespaceExists(d.registry, d.namespaces, d.namespaceCache));
}
