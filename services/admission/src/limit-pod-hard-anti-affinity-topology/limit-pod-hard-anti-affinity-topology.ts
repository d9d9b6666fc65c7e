// LimitPodHardAntiAffinityTopology (k8s.io/kubernetes plugin/pkg/admission/antiaffinity),
// validating: a pod's required (hard) anti-affinity terms may only use the host name key as
// their topology key (`orch.io/hostname`, upstream's kubernetes.io/hostname), so one pod cannot
// keep others off a whole zone.
import { newForbidden } from '@orch/apimachinery/errors';
import type { Pod } from '@orch/api/core/v1';
import type {
  PluginDeps,
  ServicePlugin,
  ServicePluginName,
  ServicePlugins,
} from '../interfaces.js';

/** The plugin's name, as the admission flags spell it. */
export const pluginName = 'LimitPodHardAntiAffinityTopology' satisfies ServicePluginName;

export const hostnameLabel = 'orch.io/hostname';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | undefined =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : undefined;

export function newLimitPodHardAntiAffinityTopology(_deps: PluginDeps): ServicePlugin {
  return {
    name: pluginName,
    handles: (op) => op === 'CREATE' || op === 'UPDATE',
    mayValidate: async (req) => req.resource.group === '' && req.resource.resource === 'pods',
    async validate(req) {
      if (req.resource.group !== '' || req.resource.resource !== 'pods') return;
      if (req.subResource !== '' || !req.object) return;
      const pod: Pod = req.object;
      const spec = obj(pod.spec);
      const anti = obj(obj(spec?.['affinity'])?.['podAntiAffinity']);
      const terms = anti?.['requiredDuringSchedulingIgnoredDuringExecution'];
      for (const t of Array.isArray(terms) ? terms : []) {
        const key = obj(t)?.['topologyKey'];
        if (key !== hostnameLabel) {
          throw newForbidden(
            { group: '', resource: 'pods' },
            req.name,
            `affinity.PodAntiAffinity.RequiredDuringScheduling has TopologyKey ${String(key ?? '')} but only key ${hostnameLabel} is allowed`
          );
        }
      }
    },
  };
}

/** Registers the plugin (upstream's Register). */
export function register(plugins: ServicePlugins): void {
  plugins.register(pluginName, newLimitPodHardAntiAffinityTopology);
}
