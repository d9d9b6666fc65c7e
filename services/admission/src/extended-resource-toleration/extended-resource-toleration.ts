// ExtendedResourceToleration (k8s.io/kubernetes plugin/pkg/admission/extendedresourcetoleration),
// mutating: a pod requesting an extended resource (a domain-qualified resource name outside
// orch.io, e.g. `example.com/gpu`) gets a toleration `<name>:NoSchedule` with operator Exists,
// so nodes tainted with the name of the resource they offer take only such pods.
import type { Pod, PodSpec } from '@orch/api/core/v1';
import type { ApiObject } from '@orch/apimachinery/meta';
import type {
  AdmissionRequest,
  PluginDeps,
  ServicePlugin,
  ServicePluginName,
  ServicePlugins,
} from '../interfaces.js';

/** The plugin's name, as the admission flags spell it. */
export const pluginName = 'ExtendedResourceToleration' satisfies ServicePluginName;

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | undefined =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : undefined;

/** Upstream's IsExtendedResourceName, with orch.io as the native domain. */
export function isExtendedResourceName(name: string): boolean {
  if (!name.includes('/')) return false;
  if (name.startsWith('requests.')) return false;
  const domain = name.slice(0, name.indexOf('/'));
  if (domain === 'orch.io' || domain.endsWith('.orch.io')) return false;
  return /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?\/[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/.test(name);
}

const isPod = (req: AdmissionRequest): boolean =>
  req.resource.group === '' && req.resource.resource === 'pods' && req.subResource === '';

export function newExtendedResourceToleration(_deps: PluginDeps): ServicePlugin {
  return {
    name: pluginName,
    handles: (op) => op === 'CREATE' || op === 'UPDATE',
    async admit(req) {
      if (!isPod(req) || !req.object) return;
      const spec = obj((req.object as Pod).spec) ?? {};
      const names = new Set<string>();
      for (const list of ['initContainers', 'containers']) {
        for (const c of Array.isArray(spec[list]) ? (spec[list] as unknown[]) : []) {
          const requests = obj(obj(obj(c)?.['resources'])?.['requests']) ?? {};
          for (const r of Object.keys(requests)) if (isExtendedResourceName(r)) names.add(r);
        }
      }
      if (names.size === 0) return;
      const tolerations = (Array.isArray(spec['tolerations']) ? spec['tolerations'] : []) as Obj[];
      const add = [...names]
        .sort()
        .filter(
          (key) =>
            !tolerations.some(
              (t) => t['key'] === key && t['operator'] === 'Exists' && t['effect'] === 'NoSchedule'
            )
        )
        .map((key) => ({ key, operator: 'Exists', effect: 'NoSchedule' }));
      if (add.length === 0) return;
      const pod = structuredClone(req.object) as ApiObject & Pod;
      // A pod without a spec is refused by validation, which runs after admission.
      pod.spec ??= {} as PodSpec;
      pod.spec.tolerations = [...tolerations, ...add];
      req.object = pod;
    },
  };
}

/** Registers the plugin (upstream's Register). */
export function register(plugins: ServicePlugins): void {
  plugins.register(pluginName, newExtendedResourceToleration);
}
