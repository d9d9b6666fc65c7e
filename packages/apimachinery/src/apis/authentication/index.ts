// authentication.orch.io (upstream pkg/apis/authentication): TokenReview and SelfSubjectReview.
import type { APIGroupDefinition } from '../types.js';
import { authenticationGroup, authenticationResources } from './resources.js';

export const authentication: APIGroupDefinition = {
  name: authenticationGroup,
  resources: authenticationResources,
};
