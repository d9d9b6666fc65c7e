// ValidatingAdmissionPolicy and ValidatingAdmissionPolicyBinding in admissionregistration.orch.io
// v1beta1, served beside v1 as upstream 1.32 (the release /version reports) still serves them:
// introduced in 1.28 (a beta after 1.22, so off unless --runtime-config turns it on), deprecated
// in 1.31 and removed in 1.34 (upstream's prerelease-lifecycle defaults: introduced + 3, then + 3).
// Stored once, as v1, converted by admissionregistration-conversion.ts.
import { allVerbs } from './resource-definition.js';
import type { ResourceDefinition } from './resource-definition.js';

const v1beta1 = (
  resource: string,
  kind: string,
  subresources: readonly string[] = []
): ResourceDefinition => ({
  group: 'admissionregistration.orch.io',
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

export const builtinAlias: readonly ResourceDefinition[] = [
  v1beta1('validatingadmissionpolicies', 'ValidatingAdmissionPolicy', ['status']),
  v1beta1('validatingadmissionpolicybindings', 'ValidatingAdmissionPolicyBinding'),
];
