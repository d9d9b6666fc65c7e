// The admissionregistration group's REST storage (k8s pkg/registry/admissionregistration/rest/
// storage_apiserver.go), v1 and v1beta1 alike; expressions are compile-checked with CEL.
import { checkAdmissionExpression } from '@orch/apimachinery/cel';
import { admissionRegistrationGroup } from '@orch/apimachinery/registry';
import type { RestStorageProvider } from '../rest-storage-provider.js';
import { StatusRest } from '../status-rest.js';
import {
  validatingAdmissionPolicyBindingStrategy,
  validatingAdmissionPolicyStrategy,
  webhookConfigurationStrategy,
} from './strategy.js';

const opts = { checkExpression: checkAdmissionExpression };

export const admissionRegistrationProvider: RestStorageProvider = {
  groupName: admissionRegistrationGroup,
  resources: {
    mutatingwebhookconfigurations: { strategy: webhookConfigurationStrategy(true, opts) },
    validatingwebhookconfigurations: { strategy: webhookConfigurationStrategy(false, opts) },
    validatingadmissionpolicies: {
      strategy: validatingAdmissionPolicyStrategy(opts),
      subresources: { status: (store) => new StatusRest(store) },
    },
    validatingadmissionpolicybindings: { strategy: validatingAdmissionPolicyBindingStrategy },
  },
};
