// The rows of the spec's "Removed API versions by release" table (spec/control-plane-api.md,
// Versioning), copied verbatim: the spec is not part of this repository, and the tests must run
// on a clean checkout. removed-versions.test.ts parses them and holds the gateway's table to
// them; when the spec's table changes, paste its rows here again.
export const specRemovedVersionRows = `
| 1.29 (to be removed) | FlowSchema, PriorityLevelConfiguration in \`flowcontrol.apiserver.orch.io/v1beta2\` | \`.../v1beta3\` (1.26) | \`spec.limited.assuredConcurrencyShares\` renamed \`spec.limited.nominalConcurrencyShares\` |
| 1.27 (to be removed) | CSIStorageCapacity \`storage.orch.io/v1beta1\` | \`storage.orch.io/v1\` (1.24) | none |
| 1.26 | FlowSchema, PriorityLevelConfiguration \`flowcontrol.apiserver.orch.io/v1beta1\` | \`.../v1beta3\` (1.26) | none |
| 1.26 | HorizontalPodAutoscaler \`autoscaling/v2beta2\` | \`autoscaling/v2\` (1.23) | none |
| 1.25 | CronJob \`batch/v1beta1\` | \`batch/v1\` (1.21) | none |
| 1.25 | EndpointSlice \`discovery.orch.io/v1beta1\` | \`discovery.orch.io/v1\` (1.21) | per-endpoint \`nodeName\` and \`zone\` replace topology keys. \`topology\` becomes read-only \`deprecatedTopology\`. |
| 1.25 | Event \`events.orch.io/v1beta1\` | \`events.orch.io/v1\` (1.19) | see Events |
| 1.25 | HorizontalPodAutoscaler \`autoscaling/v2beta1\` | \`autoscaling/v2\` (1.23) | none |
| 1.25 | PodDisruptionBudget \`policy/v1beta1\` | \`policy/v1\` (1.21) | an empty \`spec.selector\` (\`{}\`) selects all pods in the namespace in v1; in v1beta1 it selected none. Unset selects none in both. |
| 1.25 | PodSecurityPolicy \`policy/v1beta1\` | Pod security admission or a third-party admission webhook | The PodSecurityPolicy admission plugin is removed too. |
| 1.25 | RuntimeClass \`node.orch.io/v1beta1\` | \`node.orch.io/v1\` (1.20) | none |
| 1.22 | MutatingWebhookConfiguration, ValidatingWebhookConfiguration \`admissionregistration.orch.io/v1beta1\` | \`.../v1\` (1.16) | failurePolicy default Ignore becomes Fail; matchPolicy default Exact becomes Equivalent; timeoutSeconds default 30 becomes 10; sideEffects has no default, is required, and may be only None or NoneOnDryRun; admissionReviewVersions has no default and is required (v1 and v1beta1 supported); webhook names are unique in a list |
| 1.22 | CustomResourceDefinition \`apiextensions.orch.io/v1beta1\` | \`apiextensions.orch.io/v1\` (1.16) | spec.scope required; spec.version, spec.validation, spec.subresources, spec.additionalPrinterColumns move under spec.versions[*]; conversion webhook settings move under spec.conversion.webhook; openAPIV3Schema required and structural; preserveUnknownFields true disallowed (use x-kubernetes-preserve-unknown-fields); JSONPath renamed jsonPath |
| 1.22 | APIService \`apiregistration.orch.io/v1beta1\` | \`apiregistration.orch.io/v1\` (1.10) | none |
| 1.22 | TokenReview \`authentication.orch.io/v1beta1\` | \`authentication.orch.io/v1\` (1.6) | none |
| 1.22 | LocalSubjectAccessReview, SelfSubjectAccessReview, SubjectAccessReview, SelfSubjectRulesReview \`authorization.orch.io/v1beta1\` | \`authorization.orch.io/v1\` (1.6) | spec.group renamed spec.groups |
| 1.22 | CertificateSigningRequest \`certificates.orch.io/v1beta1\` | \`certificates.orch.io/v1\` (1.19) | signerName required; legacy-unknown cannot be created; usages required, unique, known; condition types unique; condition status required; certificate is PEM with only CERTIFICATE blocks |
| 1.22 | Lease \`coordination.orch.io/v1beta1\` | \`coordination.orch.io/v1\` (1.14) | none |
| 1.22 | Ingress \`extensions/v1beta1\`, \`networking.orch.io/v1beta1\` | \`networking.orch.io/v1\` (1.19) | spec.backend becomes spec.defaultBackend; serviceName becomes service.name; numeric servicePort becomes service.port.number; string servicePort becomes service.port.name; pathType required (\`Prefix\`, \`Exact\`, \`ImplementationSpecific\`) |
| 1.22 | IngressClass \`networking.orch.io/v1beta1\` | \`networking.orch.io/v1\` (1.19) | none |
| 1.22 | ClusterRole, ClusterRoleBinding, Role, RoleBinding \`rbac.authorization.orch.io/v1beta1\` | \`rbac.authorization.orch.io/v1\` (1.8) | none |
| 1.22 | PriorityClass \`scheduling.orch.io/v1beta1\` | \`scheduling.orch.io/v1\` (1.14) | none |
| 1.22 | CSIDriver, CSINode, StorageClass, VolumeAttachment \`storage.orch.io/v1beta1\` | \`storage.orch.io/v1\` (CSIDriver 1.19, CSINode 1.17, StorageClass 1.6, VolumeAttachment 1.13) | none |
| 1.16 | NetworkPolicy \`extensions/v1beta1\` | \`networking.orch.io/v1\` (1.8) | none |
| 1.16 | DaemonSet \`extensions/v1beta1\`, \`apps/v1beta2\` | \`apps/v1\` (1.9) | spec.templateGeneration removed; spec.selector required and immutable; updateStrategy.type default RollingUpdate (was OnDelete in extensions) |
| 1.16 | Deployment \`extensions/v1beta1\`, \`apps/v1beta1\`, \`apps/v1beta2\` | \`apps/v1\` (1.9) | spec.rollbackTo removed; selector required and immutable; progressDeadlineSeconds default 600; revisionHistoryLimit default 10; maxSurge and maxUnavailable default 25% |
| 1.16 | StatefulSet \`apps/v1beta1\`, \`apps/v1beta2\` | \`apps/v1\` (1.9) | selector required and immutable; updateStrategy.type default RollingUpdate |
| 1.16 | ReplicaSet \`extensions/v1beta1\`, \`apps/v1beta1\`, \`apps/v1beta2\` | \`apps/v1\` (1.9) | selector required and immutable |
| 1.16 | PodSecurityPolicy \`extensions/v1beta1\` | \`policy/v1beta1\` (1.10) | removed in 1.25 |
`;
