// The mandatory and suggested configuration (k8s pkg/apis/flowcontrol/bootstrap/default.go),
// under the spec's renaming: kube-system is orch-system, kube-controller-manager is
// orch-controller-manager (and the scheduler likewise), coordination.k8s.io is
// coordination.orch.io. Every object carries the auto-update annotation set to true.
import type {
  FlowSchema,
  PolicyRulesWithSubjects,
  PriorityLevelConfiguration,
  PriorityLevelConfigurationSpec,
  ResourcePolicyRule,
  Subject,
} from '@orch/api/flowcontrol/v1';

/** Upstream's apf.kubernetes.io/autoupdate-spec, under the orch.io domain. */
export const autoUpdateAnnotation = 'apf.orch.io/autoupdate-spec';
export const flowcontrolApiVersion = 'flowcontrol.apiserver.orch.io/v1';
export const systemNamespace = 'orch-system';

const meta = (name: string) => ({ name, annotations: { [autoUpdateAnnotation]: 'true' } });

const level = (name: string, spec: PriorityLevelConfigurationSpec): PriorityLevelConfiguration => ({
  apiVersion: flowcontrolApiVersion,
  kind: 'PriorityLevelConfiguration',
  metadata: meta(name),
  spec,
});

const queued = (
  nominalConcurrencyShares: number,
  lendablePercent: number,
  queues: number,
  handSize: number
): PriorityLevelConfigurationSpec => ({
  type: 'Limited',
  limited: {
    nominalConcurrencyShares,
    lendablePercent,
    limitResponse: { type: 'Queue', queuing: { queues, handSize, queueLengthLimit: 50 } },
  },
});

const schema = (
  name: string,
  levelName: string,
  matchingPrecedence: number,
  distinguisher: '' | 'ByUser' | 'ByNamespace',
  rule: PolicyRulesWithSubjects
): FlowSchema => ({
  apiVersion: flowcontrolApiVersion,
  kind: 'FlowSchema',
  metadata: meta(name),
  spec: {
    priorityLevelConfiguration: { name: levelName },
    matchingPrecedence,
    ...(distinguisher && { distinguisherMethod: { type: distinguisher } }),
    rules: [rule],
  },
});

const groups = (...names: string[]): Subject[] =>
  names.map((name) => ({ kind: 'Group', group: { name } }));
const users = (...names: string[]): Subject[] =>
  names.map((name) => ({ kind: 'User', user: { name } }));
const systemServiceAccounts: Subject[] = [
  { kind: 'ServiceAccount', serviceAccount: { namespace: systemNamespace, name: '*' } },
];
const everyResource: ResourcePolicyRule = {
  verbs: ['*'],
  apiGroups: ['*'],
  resources: ['*'],
  namespaces: ['*'],
  clusterScope: true,
};
const everything = (subjects: Subject[]): PolicyRulesWithSubjects => ({
  subjects,
  resourceRules: [everyResource],
  nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
});
const everyone = groups('system:unauthenticated', 'system:authenticated');
const controllerManager = 'system:orch-controller-manager';
const scheduler = 'system:orch-scheduler';

export const mandatoryPriorityLevels: PriorityLevelConfiguration[] = [
  level('catch-all', {
    type: 'Limited',
    limited: { nominalConcurrencyShares: 5, lendablePercent: 0, limitResponse: { type: 'Reject' } },
  }),
  level('exempt', { type: 'Exempt', exempt: { nominalConcurrencyShares: 0, lendablePercent: 0 } }),
];

export const mandatoryFlowSchemas: FlowSchema[] = [
  schema('exempt', 'exempt', 1, '', everything(groups('system:masters'))),
  schema('catch-all', 'catch-all', 10000, 'ByUser', everything(everyone)),
];

export const suggestedPriorityLevels: PriorityLevelConfiguration[] = [
  level('system', queued(30, 33, 64, 6)),
  level('node-high', queued(40, 25, 64, 6)),
  level('leader-election', queued(10, 0, 16, 4)),
  level('workload-high', queued(40, 50, 128, 6)),
  level('workload-low', queued(100, 90, 128, 6)),
  level('global-default', queued(20, 50, 128, 6)),
];

const leases = (verbs: string[]): ResourcePolicyRule => ({
  verbs,
  apiGroups: ['coordination.orch.io'],
  resources: ['leases'],
  namespaces: ['*'],
});

export const suggestedFlowSchemas: FlowSchema[] = [
  schema('system-nodes', 'system', 500, 'ByUser', everything(groups('system:nodes'))),
  schema('system-node-high', 'node-high', 400, 'ByUser', {
    subjects: groups('system:nodes'),
    resourceRules: [
      {
        verbs: ['*'],
        apiGroups: [''],
        resources: ['nodes', 'nodes/status'],
        namespaces: ['*'],
        clusterScope: true,
      },
      leases(['*']),
    ],
  }),
  schema('probes', 'exempt', 2, '', {
    subjects: everyone,
    nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/readyz', '/livez'] }],
  }),
  schema('system-leader-election', 'leader-election', 100, 'ByUser', {
    subjects: [...users(controllerManager, scheduler), ...systemServiceAccounts],
    resourceRules: [leases(['get', 'create', 'update'])],
  }),
  schema(
    'orch-controller-manager',
    'workload-high',
    800,
    'ByNamespace',
    everything(users(controllerManager))
  ),
  schema('orch-scheduler', 'workload-high', 800, 'ByNamespace', everything(users(scheduler))),
  schema(
    'orch-system-service-accounts',
    'workload-high',
    900,
    'ByNamespace',
    everything(systemServiceAccounts)
  ),
  schema(
    'service-accounts',
    'workload-low',
    9000,
    'ByUser',
    everything(groups('system:serviceaccounts'))
  ),
  schema('global-default', 'global-default', 9900, 'ByUser', everything(everyone)),
];
