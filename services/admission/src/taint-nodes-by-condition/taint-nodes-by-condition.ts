// TaintNodesByCondition (k8s.io/kubernetes plugin/pkg/admission/nodetaint), mutating: a node is
// created with the `node.orch.io/not-ready:NoSchedule` taint (upstream's
// node.kubernetes.io/not-ready), so that nothing is scheduled to it before the node lifecycle
// controller has seen it ready and taken the taint off.
import type { Node } from '@orch/api/core/v1';
import type { ApiObject } from '@orch/apimachinery/meta';
import type {
  PluginDeps,
  ServicePlugin,
  ServicePluginName,
  ServicePlugins,
} from '../interfaces.js';

/** The plugin's name, as the admission flags spell it. */
export const pluginName = 'TaintNodesByCondition' satisfies ServicePluginName;

export const notReadyTaint = { key: 'node.orch.io/not-ready', effect: 'NoSchedule' } as const;

export function newTaintNodesByCondition(_deps: PluginDeps): ServicePlugin {
  return {
    name: pluginName,
    handles: (op) => op === 'CREATE',
    async admit(req) {
      if (req.resource.group !== '' || req.resource.resource !== 'nodes') return;
      if (req.subResource !== '' || !req.object) return;
      const spec = (req.object as Node).spec;
      const taints = Array.isArray(spec?.taints) ? spec.taints : [];
      if (taints.some((t) => t.key === notReadyTaint.key && t.effect === notReadyTaint.effect))
        return;
      const node = structuredClone(req.object) as ApiObject & Node;
      node.spec ??= {};
      node.spec.taints = [...taints, { ...notReadyTaint }];
      req.object = node;
    },
  };
}

/** Registers the plugin (upstream's Register). */
export function register(plugins: ServicePlugins): void {
  plugins.register(pluginName, newTaintNodesByCondition);
}
