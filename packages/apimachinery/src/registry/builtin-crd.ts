// CustomResourceDefinition (apiextensions.orch.io/v1): the kind that declares custom resources
// (upstream k8s.io/apiextensions-apiserver pkg/registry/customresourcedefinition/etcd.go:
// cluster-scoped, short names crd and crds, category api-extensions, a status subresource).
import { allVerbs } from './resource-definition.js';
import type { ResourceDefinition } from './resource-definition.js';

export const builtinCrdResources: readonly ResourceDefinition[] = [
  {
    group: 'apiextensions.orch.io',
    version: 'v1',
    resource: 'customresourcedefinitions',
    kind: 'CustomResourceDefinition',
    listKind: 'CustomResourceDefinitionList',
    singular: 'customresourcedefinition',
    namespaced: false,
    verbs: allVerbs,
    shortNames: ['crd', 'crds'],
    categories: ['api-extensions'],
    subresources: ['status'],
  },
];
