// Realistic objects of every built-in kind, as clients write them, keyed `<apiVersion>/<kind>`
// (core kinds `v1/<kind>`): test data shared by the schema model's tests (validation, the binary
// round trip, tables), the gateway's API tests, the bench and the fuzz. One file per API group,
// as apis/<group>; nothing in a server reads them.
import { admissionregistrationObjects } from './admissionregistration.js';
import { apiextensionsObjects } from './apiextensions.js';
import { appsObjects } from './apps.js';
import { authenticationObjects } from './authentication.js';
import { authorizationObjects } from './authorization.js';
import { autoscalingObjects } from './autoscaling.js';
import { batchObjects } from './batch.js';
import { certificatesObjects } from './certificates.js';
import { coordinationObjects } from './coordination.js';
import { coreObjects } from './core.js';
import { discoveryObjects } from './discovery.js';
import { eventsObjects } from './events.js';
import { flowcontrolObjects } from './flowcontrol.js';
import { networkingObjects } from './networking.js';
import { nodeObjects } from './node.js';
import { apiregistrationObjects } from './apiregistration.js';
import { policyObjects } from './policy.js';
import { rbacObjects } from './rbac.js';
import { schedulingObjects } from './scheduling.js';
import { storageObjects } from './storage.js';

export { realisticPod } from './pod.js';

export const realisticObjects: Record<string, Record<string, unknown>> = {
  ...coreObjects,
  ...appsObjects,
  ...coordinationObjects,
  ...eventsObjects,
  ...certificatesObjects,
  ...rbacObjects,
  ...admissionregistrationObjects,
  ...authorizationObjects,
  ...authenticationObjects,
  ...batchObjects,
  ...autoscalingObjects,
  ...policyObjects,
  ...networkingObjects,
  ...discoveryObjects,
  ...storageObjects,
  ...schedulingObjects,
  ...nodeObjects,
  ...apiregistrationObjects,
  ...flowcontrolObjects,
  ...apiextensionsObjects,
};
