// DenyServiceExternalIPs (k8s.io/kubernetes plugin/pkg/admission/network/denyserviceexternalips),
// validating: no new use of `spec.externalIPs` on Services. A create with any is refused; an
// update may keep or remove the ones it had, not add one.
import { newForbidden } from '@orch/apimachinery/errors';
import type { Service } from '@orch/api/core/v1';
import type {
  PluginDeps,
  ServicePlugin,
  ServicePluginName,
  ServicePlugins,
} from '../interfaces.js';

/** The plugin's name, as the admission flags spell it. */
export const pluginName = 'DenyServiceExternalIPs' satisfies ServicePluginName;

function externalIPs(svc: Service | undefined): string[] {
  const ips = svc?.spec?.externalIPs;
  return Array.isArray(ips) ? ips.map(String) : [];
}

export function newDenyServiceExternalIPs(_deps: PluginDeps): ServicePlugin {
  return {
    name: pluginName,
    handles: (op) => op === 'CREATE' || op === 'UPDATE',
    mayValidate: async (req) => req.resource.group === '' && req.resource.resource === 'services',
    async validate(req) {
      if (req.resource.group !== '' || req.resource.resource !== 'services') return;
      if (req.subResource !== '') return;
      const now = externalIPs(req.object);
      if (now.length === 0) return;
      if (req.oldObject) {
        const before = new Set(externalIPs(req.oldObject));
        if (now.every((ip) => before.has(ip))) return;
      }
      throw newForbidden(
        { group: '', resource: 'services' },
        req.name,
        'Use of external IPs is denied by admission control'
      );
    },
  };
}

/** Registers the plugin (upstream's Register). */
export function register(plugins: ServicePlugins): void {
  plugins.register(pluginName, newDenyServiceExternalIPs);
}
