// SelfSubjectReview (authentication.orch.io): who the caller is, answered by the gateway, never
// stored. v1 since 1.28; v1beta1 (introduced 1.27, beta after 1.22 so off by default) is
// deprecated in 1.30 and gone in 1.33, as upstream's prerelease-lifecycle markers say; v1alpha1
// was removed in 1.32, the release this server reports.
import type { ResourceDefinition } from './resource-definition.js';

const selfSubjectReview = (
  version: string,
  deprecation?: ResourceDefinition['deprecation']
): ResourceDefinition => ({
  group: 'authentication.orch.io',
  version,
  resource: 'selfsubjectreviews',
  kind: 'SelfSubjectReview',
  listKind: 'SelfSubjectReviewList',
  singular: 'selfsubjectreview',
  namespaced: false,
  verbs: ['create'],
  virtual: true,
  ...(deprecation ? { deprecation } : {}),
});

export const builtinVer: readonly ResourceDefinition[] = [
  selfSubjectReview('v1'),
  selfSubjectReview('v1beta1', {
    deprecatedIn: '1.30',
    removedIn: '1.33',
    replacement: 'authentication.orch.io/v1 SelfSubjectReview',
  }),
];
