// The resources of admissionregistration.orch.io (upstream pkg/registry/admissionregistration):
// webhook configurations and policies, read by the admission service. v1; the webhook
// configurations' v1beta1 was removed in 1.22.
import type { ResourceDefinition } from '../../registry/resource-definition.js';
import { allVerbs } from '../../registry/resource-definition.js';
import { admissionRegistrationGroup } from '../../registry/admissionregistration-types.js';
import { resource } from '../types.js';
import type { ResourceFields } from '../types.js';

const v1 = (def: ResourceFields): ResourceDefinition =>
  resource(admissionRegistrationGroup, 'v1', def);

// ValidatingAdmissionPolicy and ValidatingAdmissionPolicyBinding in v1beta1, served beside v1 as
// upstream 1.32 (the release /version reports) still serves them: introduced in 1.28 (a beta
// after 1.22, so off unless --runtime-config turns it on), deprecated in 1.31 and removed in 1.34
// (upstream's prerelease-lifecycle defaults: introduced + 3, then + 3). Stored once, as v1,
// converted by ./conversion.ts.
const v1beta1 = (
  resource: string,
  kind: string,
  subresources: readonly string[] = []
): ResourceDefinition => ({
  group: admissionRegistrationGroup,
  version: 'v1beta1',
  resource,
  kind,
  listKind: `${kind}List`,
  singular: kind.toLowerCase(),
  namespaced: false,
  verbs: allVerbs,
  categories: ['api-extensions'],
  ...(subresources.length > 0 ? { subresources } : {}),
  storageVersion: 'v1',
  deprecation: {
    deprecatedIn: '1.31',
    removedIn: '1.34',
    replacement: `admissionregistration.orch.io/v1 ${kind}`,
  },
});

export const admissionregistrationResources: readonly ResourceDefinition[] = [
  v1({
    resource: 'mutatingwebhookconfigurations',
    kind: 'MutatingWebhookConfiguration',
    singular: 'mutatingwebhookconfiguration',
    namespaced: false,
    categories: ['api-extensions'],
  }),
  v1({
    resource: 'validatingwebhookconfigurations',
    kind: 'ValidatingWebhookConfiguration',
    singular: 'validatingwebhookconfiguration',
    namespaced: false,
    categories: ['api-extensions'],
  }),
  v1({
    resource: 'validatingadmissionpolicies',
    kind: 'ValidatingAdmissionPolicy',
    singular: 'validatingadmissionpolicy',
    namespaced: false,
    categories: ['api-extensions'],
    subresources: ['status'],
  }),
  v1({
    resource: 'validatingadmissionpolicybindings',
    kind: 'ValidatingAdmissionPolicyBinding',
    singular: 'validatingadmissionpolicybinding',
    namespaced: false,
    categories: ['api-extensions'],
  }),
  v1beta1('validatingadmissionpolicies', 'ValidatingAdmissionPolicy', ['status']),
  v1beta1('validatingadmissionpolicybindings', 'ValidatingAdmissionPolicyBinding'),
];
