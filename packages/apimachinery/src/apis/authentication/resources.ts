// The resources of authentication.orch.io: operations, not stored kinds, answered by the gateway
// (upstream pkg/registry/authentication/{tokenreview,selfsubjectreview}).
import type { ResourceDefinition } from '../../registry/resource-definition.js';
import { resource } from '../types.js';

export const authenticationGroup = 'authentication.orch.io';

// SelfSubjectReview: who the caller is. v1 since 1.28; v1beta1 (introduced 1.27, beta after 1.22
// so off by default) is deprecated in 1.30 and gone in 1.33, as upstream's prerelease-lifecycle
// markers say; v1alpha1 was removed in 1.32, the release this server reports.
const selfSubjectReview = (
  version: string,
  deprecation?: ResourceDefinition['deprecation']
): ResourceDefinition => ({
  group: authenticationGroup,
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

export const authenticationResources: readonly ResourceDefinition[] = [
  // TokenReview: only v1 is served: v1beta1 was removed in 1.22 (the spec's removed versions;
  // the gateway's token webhook still speaks it on the wire).
  {
    ...resource(authenticationGroup, 'v1', {
      resource: 'tokenreviews',
      kind: 'TokenReview',
      singular: 'tokenreview',
      namespaced: false,
    }),
    verbs: ['create'],
    virtual: true,
  },
  selfSubjectReview('v1'),
  selfSubjectReview('v1beta1', {
    deprecatedIn: '1.30',
    removedIn: '1.33',
    replacement: 'authentication.orch.io/v1 SelfSubjectReview',
  }),
];
