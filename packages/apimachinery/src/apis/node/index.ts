// node.orch.io (upstream pkg/apis/node): RuntimeClass.
import type { APIGroupDefinition } from '../types.js';
import { nodeGroup, nodeResources } from './resources.js';

export const node: APIGroupDefinition = { name: nodeGroup, resources: nodeResources };
