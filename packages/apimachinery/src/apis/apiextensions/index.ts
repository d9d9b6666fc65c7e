// apiextensions.orch.io (upstream k8s.io/apiextensions-apiserver pkg/apis/apiextensions):
// CustomResourceDefinition.
import type { APIGroupDefinition } from '../types.js';
import { apiextensionsDefaulters } from './defaults.js';
import { apiextensionsGroup, apiextensionsResources } from './resources.js';

export const apiextensions: APIGroupDefinition = {
  name: apiextensionsGroup,
  resources: apiextensionsResources,
  defaulters: apiextensionsDefaulters,
};
