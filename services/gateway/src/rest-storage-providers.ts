// The list of API groups the gateway serves from storage, one provider each (k8s
// pkg/controlplane/instance.go, the RESTStorageProviders of the control plane): above the
// registry, as the server that wires it, so that no registry folder imports the groups'.
// Adding a group is its registry/<group>/rest-storage-provider.ts and one line here. Access
// reviews and authentication's kinds are operations, served by REST objects of their own
// (registry/rest-storage.ts).
import { admissionRegistrationProvider } from './registry/admissionregistration/rest-storage-provider.js';
import { apiextensionsProvider } from './registry/apiextensions/rest-storage-provider.js';
import { apiregistrationProvider } from './registry/apiregistration/rest-storage-provider.js';
import { appsProvider } from './registry/apps/rest-storage-provider.js';
import { autoscalingProvider } from './registry/autoscaling/rest-storage-provider.js';
import { batchProvider } from './registry/batch/rest-storage-provider.js';
import { certificatesProvider } from './registry/certificates/rest-storage-provider.js';
import { coordinationProvider } from './registry/coordination/rest-storage-provider.js';
import { coreProvider } from './registry/core/rest-storage-provider.js';
import type { CoreStorageOptions } from './registry/core/rest-storage-provider.js';
import { discoveryProvider } from './registry/discovery/rest-storage-provider.js';
import { eventsProvider } from './registry/events/rest-storage-provider.js';
import { flowcontrolProvider } from './registry/flowcontrol/rest-storage-provider.js';
import { networkingProvider } from './registry/networking/rest-storage-provider.js';
import { nodeProvider } from './registry/node/rest-storage-provider.js';
import { policyProvider } from './registry/policy/rest-storage-provider.js';
import { rbacProvider } from './registry/rbac/rest-storage-provider.js';
import type { RestStorageProvider } from './registry/rest-storage-provider.js';
import { schedulingProvider } from './registry/scheduling/rest-storage-provider.js';
import { storageProvider } from './registry/storage/rest-storage-provider.js';

/** Every group's provider; `core` configures the core group's Stores (Service ranges). */
export function restStorageProviders(core: CoreStorageOptions = {}): RestStorageProvider[] {
  return [
    coreProvider(core),
    autoscalingProvider,
    batchProvider,
    certificatesProvider,
    coordinationProvider,
    discoveryProvider,
    networkingProvider,
    nodeProvider,
    policyProvider,
    rbacProvider,
    schedulingProvider,
    storageProvider,
    flowcontrolProvider,
    appsProvider,
    admissionRegistrationProvider,
    eventsProvider,
    apiextensionsProvider,
    apiregistrationProvider,
  ];
}
