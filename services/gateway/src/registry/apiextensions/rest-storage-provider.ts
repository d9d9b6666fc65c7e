// The apiextensions group's REST storage (k8s apiextensions-apiserver pkg/apiserver
// apiserver.go, its customresourcedefinitions storage): CRDs with their schema checks and
// /status. Custom resources are served by customresources/custom-resource-serving.ts as their
// CRDs become Established.
import type { RestStorageProvider } from '../rest-storage-provider.js';
import { crdSchemaChecks } from './customresourcedefinitions/schema-checks.js';
import {
  crdStatusRest,
  customResourceDefinitionStrategy,
} from './customresourcedefinitions/strategy.js';

export const apiextensionsProvider: RestStorageProvider = {
  groupName: 'apiextensions.orch.io',
  resources: {
    customresourcedefinitions: {
      strategy: customResourceDefinitionStrategy(crdSchemaChecks),
      subresources: { status: crdStatusRest },
    },
  },
};
