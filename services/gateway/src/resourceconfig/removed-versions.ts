// The API versions removed by release (spec: Versioning, "Removed API versions by release"): a
// request to one answers 404 with a Status naming the replacement, where upstream answers a plain
// 404 and leaves the pointer to its deprecation guide. Only versions the gateway does not serve
// are answered so: a served version (or one re-enabled elsewhere) is routed as usual.

import { StatusError } from '@orch/apimachinery/errors';

export interface RemovedVersion {
  group: string;
  version: string;
  /** The resources (plural names) of the kinds removed from that version. */
  resources: readonly string[];
  kind: string;
  /** The release that stopped serving it. */
  removedIn: string;
  /** What to use instead, `<group>/<version>`, or a sentence when no kind replaces it. */
  replacement: string;
  /** The release the replacement is available since. */
  since?: string;
}

const row = (
  removedIn: string,
  groupVersions: string[],
  kinds: [string, string][],
  replacement: string,
  since?: string
): RemovedVersion[] =>
  groupVersions.flatMap((gv) => {
    const [group, version] = gv.includes('/') ? (gv.split('/') as [string, string]) : ['', gv];
    return kinds.map(([kind, resource]) => ({
      group,
      version,
      resources: [resource],
      kind,
      removedIn,
      replacement,
      ...(since ? { since } : {}),
    }));
  });

const fc = 'flowcontrol.apiserver.orch.io';
const flowKinds: [string, string][] = [
  ['FlowSchema', 'flowschemas'],
  ['PriorityLevelConfiguration', 'prioritylevelconfigurations'],
];
const rbacKinds: [string, string][] = [
  ['ClusterRole', 'clusterroles'],
  ['ClusterRoleBinding', 'clusterrolebindings'],
  ['Role', 'roles'],
  ['RoleBinding', 'rolebindings'],
];

/**
 * One entry per kind and version of the spec's table, in its order, naming the replacement the
 * spec names; removed-versions.test.ts holds it to the spec's rows. Where that replacement is
 * not served, the answer follows it when it was removed too, or says it is not served
 * (replacementFor).
 */
export const removedVersions: readonly RemovedVersion[] = [
  // Not in the spec's table (which names v1beta3 as the replacement): upstream removed it in 1.32.
  ...row('1.32', [`${fc}/v1beta3`], flowKinds, `${fc}/v1`, '1.29'),
  // Not in the spec's table (its note calls the API alpha in 1.26): upstream removed it in 1.32.
  ...row(
    '1.32',
    ['authentication.orch.io/v1alpha1'],
    [['SelfSubjectReview', 'selfsubjectreviews']],
    'authentication.orch.io/v1',
    '1.28'
  ),
  ...row('1.29', [`${fc}/v1beta2`], flowKinds, `${fc}/v1beta3`, '1.26'),
  ...row(
    '1.27',
    ['storage.orch.io/v1beta1'],
    [['CSIStorageCapacity', 'csistoragecapacities']],
    'storage.orch.io/v1',
    '1.24'
  ),
  ...row('1.26', [`${fc}/v1beta1`], flowKinds, `${fc}/v1beta3`, '1.26'),
  ...row(
    '1.26',
    ['autoscaling/v2beta2'],
    [['HorizontalPodAutoscaler', 'horizontalpodautoscalers']],
    'autoscaling/v2',
    '1.23'
  ),
  ...row('1.25', ['batch/v1beta1'], [['CronJob', 'cronjobs']], 'batch/v1', '1.21'),
  ...row(
    '1.25',
    ['discovery.orch.io/v1beta1'],
    [['EndpointSlice', 'endpointslices']],
    'discovery.orch.io/v1',
    '1.21'
  ),
  ...row('1.25', ['events.orch.io/v1beta1'], [['Event', 'events']], 'events.orch.io/v1', '1.19'),
  ...row(
    '1.25',
    ['autoscaling/v2beta1'],
    [['HorizontalPodAutoscaler', 'horizontalpodautoscalers']],
    'autoscaling/v2',
    '1.23'
  ),
  ...row(
    '1.25',
    ['policy/v1beta1'],
    [['PodDisruptionBudget', 'poddisruptionbudgets']],
    'policy/v1',
    '1.21'
  ),
  ...row(
    '1.25',
    ['policy/v1beta1'],
    [['PodSecurityPolicy', 'podsecuritypolicies']],
    'Pod security admission or a third-party admission webhook'
  ),
  ...row(
    '1.25',
    ['node.orch.io/v1beta1'],
    [['RuntimeClass', 'runtimeclasses']],
    'node.orch.io/v1',
    '1.20'
  ),
  ...row(
    '1.22',
    ['admissionregistration.orch.io/v1beta1'],
    [
      ['MutatingWebhookConfiguration', 'mutatingwebhookconfigurations'],
      ['ValidatingWebhookConfiguration', 'validatingwebhookconfigurations'],
    ],
    'admissionregistration.orch.io/v1',
    '1.16'
  ),
  ...row(
    '1.22',
    ['apiextensions.orch.io/v1beta1'],
    [['CustomResourceDefinition', 'customresourcedefinitions']],
    'apiextensions.orch.io/v1',
    '1.16'
  ),
  ...row(
    '1.22',
    ['apiregistration.orch.io/v1beta1'],
    [['APIService', 'apiservices']],
    'apiregistration.orch.io/v1',
    '1.10'
  ),
  ...row(
    '1.22',
    ['authentication.orch.io/v1beta1'],
    [['TokenReview', 'tokenreviews']],
    'authentication.orch.io/v1',
    '1.6'
  ),
  ...row(
    '1.22',
    ['authorization.orch.io/v1beta1'],
    [
      ['LocalSubjectAccessReview', 'localsubjectaccessreviews'],
      ['SelfSubjectAccessReview', 'selfsubjectaccessreviews'],
      ['SubjectAccessReview', 'subjectaccessreviews'],
      ['SelfSubjectRulesReview', 'selfsubjectrulesreviews'],
    ],
    'authorization.orch.io/v1',
    '1.6'
  ),
  ...row(
    '1.22',
    ['certificates.orch.io/v1beta1'],
    [['CertificateSigningRequest', 'certificatesigningrequests']],
    'certificates.orch.io/v1',
    '1.19'
  ),
  ...row(
    '1.22',
    ['coordination.orch.io/v1beta1'],
    [['Lease', 'leases']],
    'coordination.orch.io/v1',
    '1.14'
  ),
  ...row(
    '1.22',
    ['extensions/v1beta1', 'networking.orch.io/v1beta1'],
    [['Ingress', 'ingresses']],
    'networking.orch.io/v1',
    '1.19'
  ),
  ...row(
    '1.22',
    ['networking.orch.io/v1beta1'],
    [['IngressClass', 'ingressclasses']],
    'networking.orch.io/v1',
    '1.19'
  ),
  ...row(
    '1.22',
    ['rbac.authorization.orch.io/v1beta1'],
    rbacKinds,
    'rbac.authorization.orch.io/v1',
    '1.8'
  ),
  ...row(
    '1.22',
    ['scheduling.orch.io/v1beta1'],
    [['PriorityClass', 'priorityclasses']],
    'scheduling.orch.io/v1',
    '1.14'
  ),
  ...row(
    '1.22',
    ['storage.orch.io/v1beta1'],
    [['CSIDriver', 'csidrivers']],
    'storage.orch.io/v1',
    '1.19'
  ),
  ...row(
    '1.22',
    ['storage.orch.io/v1beta1'],
    [['CSINode', 'csinodes']],
    'storage.orch.io/v1',
    '1.17'
  ),
  ...row(
    '1.22',
    ['storage.orch.io/v1beta1'],
    [['StorageClass', 'storageclasses']],
    'storage.orch.io/v1',
    '1.6'
  ),
  ...row(
    '1.22',
    ['storage.orch.io/v1beta1'],
    [['VolumeAttachment', 'volumeattachments']],
    'storage.orch.io/v1',
    '1.13'
  ),
  ...row(
    '1.16',
    ['extensions/v1beta1'],
    [['NetworkPolicy', 'networkpolicies']],
    'networking.orch.io/v1',
    '1.8'
  ),
  ...row(
    '1.16',
    ['extensions/v1beta1', 'apps/v1beta2'],
    [['DaemonSet', 'daemonsets']],
    'apps/v1',
    '1.9'
  ),
  ...row(
    '1.16',
    ['extensions/v1beta1', 'apps/v1beta1', 'apps/v1beta2'],
    [['Deployment', 'deployments']],
    'apps/v1',
    '1.9'
  ),
  ...row(
    '1.16',
    ['apps/v1beta1', 'apps/v1beta2'],
    [['StatefulSet', 'statefulsets']],
    'apps/v1',
    '1.9'
  ),
  ...row(
    '1.16',
    ['extensions/v1beta1', 'apps/v1beta1', 'apps/v1beta2'],
    [['ReplicaSet', 'replicasets']],
    'apps/v1',
    '1.9'
  ),
  ...row(
    '1.16',
    ['extensions/v1beta1'],
    [['PodSecurityPolicy', 'podsecuritypolicies']],
    'policy/v1beta1',
    '1.10'
  ),
];

/** The removed version a request names, if any (group, version, resource as requested). */
export function removedVersionOf(
  group: string,
  version: string,
  resource: string
): RemovedVersion | undefined {
  return removedVersions.find(
    (r) => r.group === group && r.version === version && r.resources.includes(resource)
  );
}

/** The versions of a group that serve a resource (the gateway's registry, after --runtime-config). */
export type ServedVersions = (group: string, resource: string) => readonly string[];

/** `<group>/<version>` of a replacement that names one; undefined for a sentence. */
export function replacementGroupVersion(
  r: RemovedVersion
): { group: string; version: string } | undefined {
  const m = /^(?:([a-z0-9.-]+)\/)?(v[0-9]+(?:(?:alpha|beta)[0-9]+)?)$/.exec(r.replacement);
  return m ? { group: m[1] ?? '', version: m[2]! } : undefined;
}

/**
 * What the answer tells the client to use: the spec's replacement when it is served or is a
 * sentence; when it was itself removed, what replaces that in turn; else nothing (a 404 must
 * not send clients to another 404).
 */
export function replacementFor(
  r: RemovedVersion,
  served: ServedVersions
): { use: string; since?: string } | { none: string } {
  const gv = replacementGroupVersion(r);
  const resource = r.resources[0]!;
  if (!gv || served(gv.group, resource).includes(gv.version)) {
    return r.since ? { use: r.replacement, since: r.since } : { use: r.replacement };
  }
  const removed = removedVersionOf(gv.group, gv.version, resource);
  return removed ? replacementFor(removed, served) : { none: r.replacement };
}

/** The message of the 404: what was asked, when it went, and what to use instead. */
export function removedVersionMessage(r: RemovedVersion, served: ServedVersions): string {
  const gv = r.group === '' ? r.version : `${r.group}/${r.version}`;
  const head = `${r.kind} ${gv} was removed in v${r.removedIn} and is not served`;
  const repl = replacementFor(r, served);
  if ('none' in repl) return `${head}; its replacement ${repl.none} is not served either`;
  return repl.since
    ? `${head}; use ${repl.use} (available since ${repl.since})`
    : `${head}; use ${repl.use}`;
}

/** The 404 Status of a request to a removed version (reason NotFound, the group and resource in details). */
export function newRemovedVersionNotFound(
  r: RemovedVersion,
  resource: string,
  served: ServedVersions
): StatusError {
  return new StatusError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: removedVersionMessage(r, served),
    reason: 'NotFound',
    details: { group: r.group, kind: resource },
    code: 404,
  });
}
