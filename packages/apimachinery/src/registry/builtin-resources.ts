// The built-in kinds served by the gateway. Adding a kind is one entry here plus, when it needs
// more than the generic rules, a strategy in the gateway's registry/<group>/<resource>/.
import { builtinQuotaResources } from './builtin-quota.js';
import { builtinSvcResources } from './builtin-svc.js';
import { platResources } from './builtin-plat.js';
import { allVerbs } from './resource-definition.js';
import type { ResourceDefinition } from './resource-definition.js';
import { workloadResources } from './builtin-wl.js';
import { builtinVer } from './builtin-ver.js';
import { builtinAlias } from './builtin-alias.js';
import { builtinCrdResources } from './builtin-crd.js';

const core = (
  def: Omit<ResourceDefinition, 'group' | 'version' | 'verbs' | 'listKind'>
): ResourceDefinition => ({
  group: '',
  version: 'v1',
  verbs: allVerbs,
  listKind: `${def.kind}List`,
  ...def,
});

const named = (
  group: string,
  version: string,
  def: Omit<ResourceDefinition, 'group' | 'version' | 'verbs' | 'listKind'>
): ResourceDefinition => ({ group, version, verbs: allVerbs, listKind: `${def.kind}List`, ...def });

const review = (
  def: Omit<ResourceDefinition, 'group' | 'version' | 'verbs' | 'listKind'>
): ResourceDefinition => ({
  group: 'authorization.orch.io',
  version: 'v1',
  verbs: ['create'],
  listKind: `${def.kind}List`,
  virtual: true,
  ...def,
});

export const builtinResources: readonly ResourceDefinition[] = [
  core({
    resource: 'namespaces',
    kind: 'Namespace',
    singular: 'namespace',
    namespaced: false,
    shortNames: ['ns'],
    subresources: ['status', 'finalize'],
    selectableFields: ['status.phase'],
  }),
  core({
    resource: 'configmaps',
    kind: 'ConfigMap',
    singular: 'configmap',
    namespaced: true,
    shortNames: ['cm'],
  }),
  core({
    resource: 'secrets',
    kind: 'Secret',
    singular: 'secret',
    namespaced: true,
    selectableFields: ['type'],
  }),
  core({
    resource: 'serviceaccounts',
    kind: 'ServiceAccount',
    singular: 'serviceaccount',
    namespaced: true,
    shortNames: ['sa'],
    subresources: ['token'],
  }),
  core({
    resource: 'pods',
    kind: 'Pod',
    singular: 'pod',
    namespaced: true,
    shortNames: ['po'],
    categories: ['all'],
    subresources: ['status', 'binding', 'eviction'],
    selectableFields: [
      'spec.nodeName',
      'spec.restartPolicy',
      'spec.schedulerName',
      'spec.serviceAccountName',
      'status.phase',
      'status.podIP',
      'status.nominatedNodeName',
    ],
  }),
  ...builtinSvcResources,
  core({
    resource: 'services',
    kind: 'Service',
    singular: 'service',
    namespaced: true,
    shortNames: ['svc'],
    categories: ['all'],
    subresources: ['status'],
  }),
  core({
    resource: 'nodes',
    kind: 'Node',
    singular: 'node',
    namespaced: false,
    shortNames: ['no'],
    subresources: ['status'],
    selectableFields: ['spec.unschedulable'],
  }),
  core({
    resource: 'events',
    kind: 'Event',
    singular: 'event',
    namespaced: true,
    shortNames: ['ev'],
    selectableFields: [
      'involvedObject.kind',
      'involvedObject.namespace',
      'involvedObject.name',
      'involvedObject.uid',
      'involvedObject.apiVersion',
      'involvedObject.resourceVersion',
      'involvedObject.fieldPath',
      'reason',
      'reportingComponent',
      'source',
      'type',
    ],
  }),
  named('apps', 'v1', {
    resource: 'deployments',
    kind: 'Deployment',
    singular: 'deployment',
    namespaced: true,
    shortNames: ['deploy'],
    categories: ['all'],
    subresources: ['status', 'scale'],
  }),
  named('apps', 'v1', {
    resource: 'replicasets',
    kind: 'ReplicaSet',
    singular: 'replicaset',
    namespaced: true,
    shortNames: ['rs'],
    categories: ['all'],
    subresources: ['status', 'scale'],
  }),
  named('coordination.orch.io', 'v1', {
    resource: 'leases',
    kind: 'Lease',
    singular: 'lease',
    namespaced: true,
  }),
  named('events.orch.io', 'v1', {
    resource: 'events',
    kind: 'Event',
    singular: 'event',
    namespaced: true,
    shortNames: ['ev'],
    // One collection with core v1 Events, stored as those (converted by the gateway's store).
    storageGroup: '',
    storageResource: 'events',
    selectableFields: [
      'regarding.kind',
      'regarding.namespace',
      'regarding.name',
      'regarding.uid',
      'reason',
      'reportingController',
      'type',
    ],
  }),
  // Certificate signing requests: the gateway serves them; everything specific to them (the
  // request's checks, the three Certificate admission plugins, approvers and signers) is the
  // certificates service's.
  named('certificates.orch.io', 'v1', {
    resource: 'certificatesigningrequests',
    kind: 'CertificateSigningRequest',
    singular: 'certificatesigningrequest',
    namespaced: false,
    shortNames: ['csr'],
    subresources: ['status', 'approval'],
    selectableFields: ['spec.signerName'],
  }),
  // RBAC (the authorizer service reads these through an informer).
  named('rbac.authorization.orch.io', 'v1', {
    resource: 'roles',
    kind: 'Role',
    singular: 'role',
    namespaced: true,
  }),
  named('rbac.authorization.orch.io', 'v1', {
    resource: 'rolebindings',
    kind: 'RoleBinding',
    singular: 'rolebinding',
    namespaced: true,
  }),
  named('rbac.authorization.orch.io', 'v1', {
    resource: 'clusterroles',
    kind: 'ClusterRole',
    singular: 'clusterrole',
    namespaced: false,
  }),
  named('rbac.authorization.orch.io', 'v1', {
    resource: 'clusterrolebindings',
    kind: 'ClusterRoleBinding',
    singular: 'clusterrolebinding',
    namespaced: false,
  }),
  // Admission registration: webhook configurations and policies, read by the admission service.
  // v1; the webhook configurations' v1beta1 was removed in 1.22 (the policies' v1beta1 is in
  // builtin-alias.ts).
  named('admissionregistration.orch.io', 'v1', {
    resource: 'mutatingwebhookconfigurations',
    kind: 'MutatingWebhookConfiguration',
    singular: 'mutatingwebhookconfiguration',
    namespaced: false,
    categories: ['api-extensions'],
  }),
  named('admissionregistration.orch.io', 'v1', {
    resource: 'validatingwebhookconfigurations',
    kind: 'ValidatingWebhookConfiguration',
    singular: 'validatingwebhookconfiguration',
    namespaced: false,
    categories: ['api-extensions'],
  }),
  named('admissionregistration.orch.io', 'v1', {
    resource: 'validatingadmissionpolicies',
    kind: 'ValidatingAdmissionPolicy',
    singular: 'validatingadmissionpolicy',
    namespaced: false,
    categories: ['api-extensions'],
    subresources: ['status'],
  }),
  named('admissionregistration.orch.io', 'v1', {
    resource: 'validatingadmissionpolicybindings',
    kind: 'ValidatingAdmissionPolicyBinding',
    singular: 'validatingadmissionpolicybinding',
    namespaced: false,
    categories: ['api-extensions'],
  }),
  // Access reviews: virtual, create only, answered by the authorizer service.
  review({
    resource: 'subjectaccessreviews',
    kind: 'SubjectAccessReview',
    singular: 'subjectaccessreview',
    namespaced: false,
  }),
  review({
    resource: 'selfsubjectaccessreviews',
    kind: 'SelfSubjectAccessReview',
    singular: 'selfsubjectaccessreview',
    namespaced: false,
  }),
  review({
    resource: 'localsubjectaccessreviews',
    kind: 'LocalSubjectAccessReview',
    singular: 'localsubjectaccessreview',
    namespaced: true,
  }),
  review({
    resource: 'selfsubjectrulesreviews',
    kind: 'SelfSubjectRulesReview',
    singular: 'selfsubjectrulesreview',
    namespaced: false,
  }),
  // authentication: operations, not stored kinds. Only v1 is served: v1beta1 was removed in 1.22
  // (the spec's removed versions; the gateway's token webhook still speaks it on the wire).
  ...['v1'].map((v) => ({
    ...named('authentication.orch.io', v, {
      resource: 'tokenreviews',
      kind: 'TokenReview',
      singular: 'tokenreview',
      namespaced: false,
    }),
    verbs: ['create'] as const,
    virtual: true,
  })),
  ...builtinQuotaResources,
  ...workloadResources,
  ...platResources,
  ...builtinVer,
  ...builtinAlias,
  ...builtinCrdResources,
];
