// AlwaysAdmit and AlwaysDeny (k8s.io/kubernetes plugin/pkg/admission/admit and deny, both
// deprecated upstream): admit every request, or deny every request in both phases.
import { newForbidden } from '@orch/apimachinery/errors';
import type {
  AdmissionRequest,
  PluginDeps,
  ServicePlugin,
  ServicePluginName,
  ServicePlugins,
} from '../interfaces.js';

/** The plugins' names, as the admission flags spell them. */
export const alwaysAdmitPluginName = 'AlwaysAdmit' satisfies ServicePluginName;
export const alwaysDenyPluginName = 'AlwaysDeny' satisfies ServicePluginName;

/** AlwaysAdmit: allows everything (upstream's admit plugin); a testing aid. */
export function newAlwaysAdmit(deps: PluginDeps): ServicePlugin {
  deps.log.warn(
    `${alwaysAdmitPluginName} admission controller is deprecated. Please use a real controller.`
  );
  return {
    name: alwaysAdmitPluginName,
    handles: () => true,
    admit: async () => undefined,
    validate: async () => undefined,
  };
}

/**
 * AlwaysDeny: refuses every write (upstream's deny plugin: admission.NewForbidden(a,
 * errors.New("admission control is denying all modifications"))).
 */
export function newAlwaysDeny(deps: PluginDeps): ServicePlugin {
  deps.log.warn(
    `${alwaysDenyPluginName} admission controller is deprecated. Please use a real controller.`
  );
  const deny = async (req: AdmissionRequest): Promise<void> => {
    throw newForbidden(
      { group: req.resource.group, resource: req.resource.resource },
      req.name,
      'admission control is denying all modifications'
    );
  };
  return { name: alwaysDenyPluginName, handles: () => true, admit: deny, validate: deny };
}

/** Registers both plugins (upstream's admit.Register and deny.Register). */
export function register(plugins: ServicePlugins): void {
  plugins.register(alwaysAdmitPluginName, newAlwaysAdmit);
  plugins.register(alwaysDenyPluginName, newAlwaysDeny);
}
