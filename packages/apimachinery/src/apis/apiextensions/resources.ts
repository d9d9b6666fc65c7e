// The resources of apiextensions.orch.io, v1: CustomResourceDefinition, the kind that declares
// custom resources (upstream k8s.io/apiextensions-apiserver
// pkg/registry/customresourcedefinition/etcd.go: cluster-scoped, short names crd and crds, category
// api-extensions, a status subresource).
import type { ResourceDefinition } from '../../registry/resource-definition.js';
import { resource } from '../types.js';

export const apiextensionsGroup = 'apiextensions.orch.io';

export const apiextensionsResources: readonly ResourceDefinition[] = [
  resource(apiextensionsGroup, 'v1', {
    resource: 'customresourcedefinitions',
    kind: 'CustomResourceDefinition',
    singular: 'customresourcedefinition',
    namespaced: false,
    shortNames: ['crd', 'crds'],
    categories: ['api-extensions'],
    subresources: ['status'],
  }),
];
