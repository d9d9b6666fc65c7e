// Which strategy each resource uses; kinds without an entry use the default rules.
import { checkAdmissionExpression } from '@orch/apimachinery/cel';
import { admissionRegistrationGroup } from '@orch/apimachinery/registry';
import type { ResourceDefinition } from '@orch/apimachinery/registry';
import { admissionRegistrationStrategy } from './admissionregistration/strategy.js';
import { certificateSigningRequestStrategy } from './certificates/certificatesigningrequests/strategy.js';
import { namespaceStrategy } from './core/namespaces/strategy.js';
import { rbacStrategy } from './rbac/strategy.js';
import { defaultStrategy } from './strategy.js';
import type { Strategy } from './strategy.js';

const special: Record<string, Strategy> = {
  '/namespaces': namespaceStrategy,
  'certificates.orch.io/certificatesigningrequests': certificateSigningRequestStrategy,
};

export function strategyFor(def: ResourceDefinition): Strategy {
  if (def.group === 'rbac.authorization.orch.io') return rbacStrategy(def);
  if (def.group === admissionRegistrationGroup)
    return admissionRegistrationStrategy(def, { checkExpression: checkAdmissionExpression });
  return (
    special[`${def.group}/${def.resource}`] ??
    defaultStrategy({ hasStatus: def.subresources?.includes('status') ?? false })
  );
}
