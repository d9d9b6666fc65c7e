// The AlwaysAllow and AlwaysDeny modes (k8s authorizerfactory).
import type { Authorizer } from '../rbac/types.js';

const everything = { verbs: ['*'], apiGroups: ['*'], resources: ['*'], resourceNames: [] };

export const alwaysAllow: Authorizer = {
  authorize: () => ({ decision: 'allow', reason: '', nameIndependent: true }),
  rulesFor: () => ({
    resourceRules: [everything],
    nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
    incomplete: false,
    evaluationError: '',
  }),
};

export const alwaysDeny: Authorizer = {
  authorize: () => ({
    decision: 'deny',
    reason: 'Everything is forbidden.',
    nameIndependent: true,
  }),
  rulesFor: () => ({
    resourceRules: [],
    nonResourceRules: [],
    incomplete: false,
    evaluationError: '',
  }),
};
