// authorization.orch.io (upstream pkg/apis/authorization): the access reviews.
import type { APIGroupDefinition } from '../types.js';
import { authorizationGroup, authorizationResources } from './resources.js';

export const authorization: APIGroupDefinition = {
  name: authorizationGroup,
  resources: authorizationResources,
};
