// The admissionregistration group's REST storage (k8s pkg/registry/admissionregistration/rest/
// storage_apiserver.go), v1 and v1beta1 alike; expressions are compile-checked with CEL.
import { checkAdmissionExpression } from '@orch/apimachinery/cel';
import { admissionRegistrationGroup } from '@orch/apimachinery/registry';
import type { ResourceDefinition } from '@orch/apimachinery/registry';
import type { RestStorageProvider } from '../rest-storage-provider.js';
import { StatusRest } from '../status-rest.js';
import type { Strategy } from '../strategy.js';
import { admissionRegistrationStrategy } from './strategy.js';

const strategy = (def: ResourceDefinition): Strategy =>
  admissionRegistrationStrategy(def, { checkExpression: checkAdmissionExpression });

export const admissionRegistrationProvider: RestStorageProvider = {
  groupName: admissionRegistrationGroup,
  resources: {
    mutatingwebhookconfigurations: { strategy },
    validatingwebhookconfigurations: { strategy },
    validatingadmissionpolicies: {
      strategy,
      subresources: { status: (store) => new StatusRest(store) },
    },
    validatingadmissionpolicybindings: { strategy },
  },
};
