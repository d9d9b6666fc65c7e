// The list of API groups the gateway serves from storage, one provider each (k8s
// pkg/controlplane/instance.go, the RESTStorageProviders of the control plane). Adding a group
// is its registry/<group>/rest-storage-provider.ts and one line here. Access reviews and
// authentication's kinds are operations, served by REST objects of their own (rest-storage.ts).
import { admissionRegistrationProvider } from './admissionregistration/rest-storage-provider.js';
import { apiextensionsProvider } from './apiextensions/rest-storage-provider.js';
import { appsProvider } from './apps/rest-storage-provider.js';
import { autoscalingProvider } from './autoscaling/rest-storage-provider.js';
import { batchProvider } from './batch/rest-storage-provider.js';
import { certificatesProvider } from './certificates/rest-storage-provider.js';
import { coordinationProvider } from './coordination/rest-storage-provider.js';
import { coreProvider } from './core/rest-storage-provider.js';
import type { CoreStorageOptions } from './core/rest-storage-provider.js';
import { discoveryProvider } from './discovery/rest-storage-provider.js';
import { eventsProvider } from './events/rest-storage-provider.js';
import { flowcontrolProvider } from './flowcontrol/rest-storage-provider.js';
import { networkingProvider } from './networking/rest-storage-provider.js';
import { nodeProvider } from './node/rest-storage-provider.js';
import { policyProvider } from './policy/rest-storage-provider.js';
import { rbacProvider } from './rbac/rest-storage-provider.js';
import type { RestStorageProvider } from './rest-storage-provider.js';
import { schedulingProvider } from './scheduling/rest-storage-provider.js';
import { storageProvider } from './storage/rest-storage-provider.js';

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
  ];
}
