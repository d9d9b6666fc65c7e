// The resources of authorization.orch.io, v1: the access reviews (upstream
// pkg/registry/authorization/*review), virtual, create only, answered by the authorizer service.
import type { ResourceDefinition } from '../../registry/resource-definition.js';
import type { ResourceFields } from '../types.js';

export const authorizationGroup = 'authorization.orch.io';

const review = (def: ResourceFields): ResourceDefinition => ({
  group: authorizationGroup,
  version: 'v1',
  verbs: ['create'],
  listKind: `${def.kind}List`,
  virtual: true,
  ...def,
});

export const authorizationResources: readonly ResourceDefinition[] = [
  review({
    resource: 'subjectaccessreviews',
    kind: 'SubjectAccessReview',
    singular: 'subjectaccessreview',
    namespaced: false,
  }),
  review({
    resource: 'selfsubjectaccessreviews',
    kind: 'SelfSubjectAccessReview',
    singular: 'selfsubjectaccessreview',
    namespaced: false,
  }),
  review({
    resource: 'localsubjectaccessreviews',
    kind: 'LocalSubjectAccessReview',
    singular: 'localsubjectaccessreview',
    namespaced: true,
  }),
  review({
    resource: 'selfsubjectrulesreviews',
    kind: 'SelfSubjectRulesReview',
    singular: 'selfsubjectrulesreview',
    namespaced: false,
  }),
];
