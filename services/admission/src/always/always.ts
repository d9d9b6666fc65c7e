// AlwaysAdmit and AlwaysDeny (k8s.io/kubernetes plugin/pkg/admission/admit and deny, both
// deprecated upstream): admit every request, or deny every request in both phases.
import { newForbidden } from '@orch/apimachinery/errors';
import type { AdmissionRequest, PluginDeps, ServicePlugin } from '../interfaces.js';

/** AlwaysAdmit: allows everything (upstream's admit plugin); a testing aid. */
export function newAlwaysAdmit(deps: PluginDeps): ServicePlugin {
  deps.log.warn('AlwaysAdmit admission controller is deprecated. Please use a real controller.');
  return {
    name: 'AlwaysAdmit',
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
  deps.log.warn('AlwaysDeny admission controller is deprecated. Please use a real controller.');
  const deny = async (req: AdmissionRequest): Promise<void> => {
    throw newForbidden(
      { group: req.resource.group, resource: req.resource.resource },
      req.name,
      'admission control is denying all modifications'
    );
  };
  return { name: 'AlwaysDeny', handles: () => true, admit: deny, validate: deny };
}
