// Which strategy each resource uses; kinds without an entry use the default rules.
import { checkAdmissionExpression } from '@orch/apimachinery/cel';
import { admissionRegistrationGroup } from '@orch/apimachinery/registry';
import type { ResourceDefinition } from '@orch/apimachinery/registry';
import { admissionRegistrationStrategy } from './admissionregistration/strategy.js';
import { certificateSigningRequestStrategy } from './certificates/certificatesigningrequests/strategy.js';
import { coreEventStrategy, eventsV1Strategy } from './core/events/strategy.js';
import { limitRangeStrategy } from './core/limitranges/strategy.js';
import { podStrategy } from './core/pods/strategy.js';
import { namespaceStrategy } from './core/namespaces/strategy.js';
import { resourceQuotaStrategy } from './core/resourcequotas/strategy.js';
import { serviceStrategy } from './core/services/strategy.js';
import { configMapStrategy } from './core/configmaps/strategy.js';
import { persistentVolumeClaimStrategy } from './core/persistentvolumeclaims/strategy.js';
import { persistentVolumeStrategy } from './core/persistentvolumes/strategy.js';
import { secretStrategy } from './core/secrets/strategy.js';
import { endpointSliceStrategy } from './discovery/endpointslices/strategy.js';
import { flowSchemaStrategy } from './flowcontrol/flowschemas/strategy.js';
import { priorityLevelConfigurationStrategy } from './flowcontrol/prioritylevelconfigurations/strategy.js';
import { ingressClassStrategy } from './networking/ingressclasses/strategy.js';
import { ingressStrategy } from './networking/ingresses/strategy.js';
import { networkPolicyStrategy } from './networking/networkpolicies/strategy.js';
import { runtimeClassStrategy } from './node/runtimeclasses/strategy.js';
import { priorityClassStrategy } from './scheduling/priorityclasses/strategy.js';
import { csiDriverStrategy } from './storage/csidrivers/strategy.js';
import { csiNodeStrategy } from './storage/csinodes/strategy.js';
import { csiStorageCapacityStrategy } from './storage/csistoragecapacities/strategy.js';
import { storageClassStrategy } from './storage/storageclasses/strategy.js';
import { volumeAttachmentStrategy } from './storage/volumeattachments/strategy.js';
import { rbacStrategy } from './rbac/strategy.js';
import { crdSchemaChecks } from './apiextensions/customresourcedefinitions/schema-checks.js';
import { customResourceDefinitionStrategy } from './apiextensions/customresourcedefinitions/strategy.js';
import { workloadStrategies } from './workload-strategies.js';
import { defaultStrategy } from './strategy.js';
import type { Strategy } from './strategy.js';

const special: Record<string, Strategy> = {
  '/namespaces': namespaceStrategy,
  'certificates.orch.io/certificatesigningrequests': certificateSigningRequestStrategy,
  '/resourcequotas': resourceQuotaStrategy,
  '/limitranges': limitRangeStrategy,
  '/pods': podStrategy,
  '/services': serviceStrategy,
  '/events': coreEventStrategy,
  'events.orch.io/events': eventsV1Strategy,
  ...workloadStrategies,
  // the platform kinds and Secret/ConfigMap (issue 18, plat)
  '/secrets': secretStrategy,
  '/configmaps': configMapStrategy,
  '/persistentvolumes': persistentVolumeStrategy,
  '/persistentvolumeclaims': persistentVolumeClaimStrategy,
  'networking.orch.io/ingresses': ingressStrategy,
  'networking.orch.io/ingressclasses': ingressClassStrategy,
  'networking.orch.io/networkpolicies': networkPolicyStrategy,
  'discovery.orch.io/endpointslices': endpointSliceStrategy,
  'storage.orch.io/storageclasses': storageClassStrategy,
  'storage.orch.io/csidrivers': csiDriverStrategy,
  'storage.orch.io/csinodes': csiNodeStrategy,
  'storage.orch.io/volumeattachments': volumeAttachmentStrategy,
  'storage.orch.io/csistoragecapacities': csiStorageCapacityStrategy,
  'scheduling.orch.io/priorityclasses': priorityClassStrategy,
  'node.orch.io/runtimeclasses': runtimeClassStrategy,
  'flowcontrol.apiserver.orch.io/flowschemas': flowSchemaStrategy,
  'flowcontrol.apiserver.orch.io/prioritylevelconfigurations': priorityLevelConfigurationStrategy,
  // custom resource definitions (issue 13, crd-api)
  'apiextensions.orch.io/customresourcedefinitions':
    customResourceDefinitionStrategy(crdSchemaChecks),
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
