// DefaultTolerationSeconds (k8s.io/kubernetes plugin/pkg/admission/defaulttolerationseconds),
// mutating: a pod that does not tolerate the not-ready and unreachable NoExecute taints gets a
// toleration of each for --default-not-ready-toleration-seconds and
// --default-unreachable-toleration-seconds (300 s each), so that it is evicted five minutes after
// its node goes away. A toleration with the taint's key (or no key and operator Exists) and
// effect NoExecute (or no effect) counts as tolerating it.
import type { Pod, PodSpec, Toleration } from '@orch/api/core/v1';
import type { ApiObject } from '@orch/apimachinery/meta';
import type {
  AdmissionRequest,
  PluginDeps,
  ServicePlugin,
  ServicePluginName,
  ServicePlugins,
} from '../interfaces.js';

/** The plugin's name, as the admission flags spell it. */
export const pluginName = 'DefaultTolerationSeconds' satisfies ServicePluginName;

export const taintNodeNotReady = 'node.orch.io/not-ready';
export const taintNodeUnreachable = 'node.orch.io/unreachable';

export interface DefaultTolerationSecondsOptions {
  notReadySeconds: number;
  unreachableSeconds: number;
}

const isPod = (req: AdmissionRequest): boolean =>
  req.resource.group === '' && req.resource.resource === 'pods' && req.subResource === '';

function tolerates(tolerations: Toleration[], key: string): boolean {
  return tolerations.some(
    (t) =>
      (t.key === key || ((t.key ?? '') === '' && t.operator === 'Exists')) &&
      ((t.effect ?? '') === '' || t.effect === 'NoExecute')
  );
}

export function newDefaultTolerationSeconds(deps: PluginDeps): ServicePlugin {
  const opts: DefaultTolerationSecondsOptions = {
    notReadySeconds: deps.settings?.defaultNotReadyTolerationSeconds ?? 300,
    unreachableSeconds: deps.settings?.defaultUnreachableTolerationSeconds ?? 300,
  };
  return {
    name: pluginName,
    handles: (op) => op === 'CREATE' || op === 'UPDATE',
    async admit(req) {
      if (!isPod(req) || !req.object) return;
      const spec = (req.object as Pod).spec;
      const tolerations = Array.isArray(spec?.tolerations) ? spec.tolerations : [];
      const add: Toleration[] = [];
      for (const [key, seconds] of [
        [taintNodeNotReady, opts.notReadySeconds],
        [taintNodeUnreachable, opts.unreachableSeconds],
      ] as const) {
        if (!tolerates(tolerations, key)) {
          add.push({ key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: seconds });
        }
      }
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
  plugins.register(pluginName, newDefaultTolerationSeconds);
}
