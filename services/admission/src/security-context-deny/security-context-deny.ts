// SecurityContextDeny (k8s.io/kubernetes plugin/pkg/admission/securitycontext/scdeny, admission.go),
// validating, off by default and deprecated as upstream's: a Pod created or updated with a
// security context field that would let it choose its identity is refused, the first found:
// pod-level supplementalGroups, seLinuxOptions, runAsUser, fsGroup, then per container (init,
// app, ephemeral; upstream's VisitContainers order) seLinuxOptions, runAsUser.
import type { Pod } from '@orch/api/core/v1';
import { admissionForbidden } from '../admission-forbidden.js';
import type {
  AdmissionRequest,
  PluginDeps,
  ServicePlugin,
  ServicePluginName,
  ServicePlugins,
} from '../interfaces.js';

/** The plugin's name, as the admission flags spell it. */
export const pluginName = 'SecurityContextDeny' satisfies ServicePluginName;

const isPods = (req: AdmissionRequest): boolean =>
  req.resource.group === '' && req.resource.resource === 'pods';

const set = (v: unknown): boolean => v !== undefined && v !== null;

/** The upstream message of the first forbidden field, or undefined. */
export function forbiddenSecurityContextField(pod: Pod): string | undefined {
  const spec = pod.spec;
  const psc = spec?.securityContext;
  if (psc) {
    if (set(psc.supplementalGroups)) return 'pod.Spec.SecurityContext.SupplementalGroups';
    if (set(psc.seLinuxOptions)) return 'pod.Spec.SecurityContext.SELinuxOptions';
    if (set(psc.runAsUser)) return 'pod.Spec.SecurityContext.RunAsUser';
    if (set(psc.fsGroup)) return 'pod.Spec.SecurityContext.FSGroup';
  }
  const containers = [
    ...(spec?.initContainers ?? []),
    ...(spec?.containers ?? []),
    ...(spec?.ephemeralContainers ?? []),
  ];
  for (const c of containers) {
    const sc = c.securityContext;
    if (!sc) continue;
    if (set(sc.seLinuxOptions)) return 'SecurityContext.SELinuxOptions';
    if (set(sc.runAsUser)) return 'SecurityContext.RunAsUser';
  }
  return undefined;
}

export function newSecurityContextDeny(_deps: PluginDeps): ServicePlugin {
  return {
    name: pluginName,
    handles: (op) => op === 'CREATE' || op === 'UPDATE',
    mayValidate: async (req) => isPods(req) && req.subResource === '',
    async validate(req) {
      if (!isPods(req) || req.subResource !== '' || !req.object) return;
      const field = forbiddenSecurityContextField(req.object as Pod);
      if (field !== undefined) throw admissionForbidden(req, `${field} is forbidden`);
    },
  };
}

/** Registers the plugin (upstream's Register). */
export function register(plugins: ServicePlugins): void {
  plugins.register(pluginName, newSecurityContextDeny);
}
