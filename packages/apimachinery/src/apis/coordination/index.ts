// coordination.orch.io (upstream pkg/apis/coordination): Lease.
import type { APIGroupDefinition } from '../types.js';
import { coordinationGroup, coordinationResources } from './resources.js';

export const coordination: APIGroupDefinition = {
  name: coordinationGroup,
  resources: coordinationResources,
};
