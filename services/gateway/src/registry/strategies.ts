// Which strategy each resource uses; kinds without an entry use the default rules.
import { checkAdmissionExpression } from '@orch/apimachinery/cel';
import { admissionRegistrationGroup } from '@orch/apimachinery/registry';
import type { ResourceDefinition } from '@orch/apimachinery/registry';
import { admissionRegistrationStrategy } from './admissionregistration/strategy.js';
import { certificateSigningRequestStrategy } from './certificates/certificatesigningrequests/strategy.js';
import { coreEventStrategy, eventsV1Strategy } from './core/events/strategy.js';
import { limitRangeStrategy } from './core/limitranges/strategy.js';
import { namespaceStrategy } from './core/namespaces/strategy.js';
import { resourceQuotaStrategy } from './core/resourcequotas/strategy.js';
import { serviceStrategy } from './core/services/strategy.js';
import { rbacStrategy } from './rbac/strategy.js';
import { workloadStrategies } from './workload-strategies.js';
import { defaultStrategy } from './strategy.js';
import type { Strategy } from './strategy.js';

const special: Record<string, Strategy> = {
  '/namespaces': namespaceStrategy,
  'certificates.orch.io/certificatesigningrequests': certificateSigningRequestStrategy,
  '/resourcequotas': resourceQuotaStrategy,
  '/limitranges': limitRangeStrategy,
  '/services': serviceStrategy,
  '/events': coreEventStrategy,
  'events.orch.io/events': eventsV1Strategy,
  ...workloadStrategies,
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
