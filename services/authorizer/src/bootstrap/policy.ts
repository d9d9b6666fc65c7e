// The bootstrap policy (k8s plugin/pkg/auth/authorizer/rbac/bootstrappolicy): the roles and
// bindings every cluster starts with, reconciled at start by reconcile-policy.ts (created when
// missing, missing rules added; never removed, so an operator's additions survive).
import type { PolicyRule, Role, RoleBinding, Subject } from '@orch/apimachinery/auth';
import { componentsGroup } from '@orch/component-base/pki';

const rbacApiVersion = 'rbac.authorization.orch.io/v1';
export const aggregateLabel = (to: 'admin' | 'edit' | 'view'): string =>
  `rbac.authorization.orch.io/aggregate-to-${to}`;
const bootstrapLabels = { 'orch.io/bootstrapping': 'rbac-defaults' };
const autoupdate = { 'rbac.authorization.orch.io/autoupdate': 'true' };

const read = ['get', 'list', 'watch'];
const write = ['create', 'delete', 'deletecollection', 'patch', 'update'];
const rule = (
  verbs: string[],
  apiGroups: string[],
  resources: string[],
  resourceNames?: string[]
): PolicyRule => ({
  verbs,
  apiGroups,
  resources,
  ...(resourceNames ? { resourceNames } : {}),
});
const urls = (verbs: string[], nonResourceURLs: string[]): PolicyRule => ({
  verbs,
  nonResourceURLs,
});

const core = '';
const apps = 'apps';
const policy = 'policy';
const coordination = 'coordination.orch.io';
const events = 'events.orch.io';
const certificates = 'certificates.orch.io';
const rbac = 'rbac.authorization.orch.io';
const authorization = 'authorization.orch.io';
const authentication = 'authentication.orch.io';
const networking = 'networking.orch.io';
const apiextensionsGroup = 'apiextensions.orch.io';

export const clientNodeAgentSigner = 'orch.io/apiserver-client-node-agent';
export const clientSigner = 'orch.io/apiserver-client';
export const nodeAgentServingSigner = 'orch.io/node-agent-serving';

function clusterRole(
  name: string,
  rules: PolicyRule[],
  labels: Record<string, string> = {},
  aggregateFrom?: string
): Role {
  const role: Role = {
    apiVersion: rbacApiVersion,
    kind: 'ClusterRole',
    metadata: { name, labels: { ...bootstrapLabels, ...labels }, annotations: { ...autoupdate } },
    rules,
  };
  if (aggregateFrom)
    role.aggregationRule = { clusterRoleSelectors: [{ matchLabels: { [aggregateFrom]: 'true' } }] };
  return role;
}

const user = (name: string): Subject => ({ kind: 'User', apiGroup: rbac, name });
/** A controller's own ServiceAccount (orch-controllers --use-service-account-credentials). */
const controllerServiceAccount = (name: string): Subject => ({
  kind: 'ServiceAccount',
  name,
  namespace: 'orch-system',
});
const group = (name: string): Subject => ({ kind: 'Group', apiGroup: rbac, name });

function clusterRoleBinding(name: string, role: string, subjects: Subject[]): RoleBinding {
  return {
    apiVersion: rbacApiVersion,
    kind: 'ClusterRoleBinding',
    metadata: { name, labels: { ...bootstrapLabels }, annotations: { ...autoupdate } },
    roleRef: { apiGroup: rbac, kind: 'ClusterRole', name: role },
    subjects,
  };
}

/** The user names of the suite's own components (their client certificates: CN system:orch:<name>). */
export const componentUser = (name: string): string => `system:orch:${name}`;

const csrRead = rule(read, [certificates], ['certificatesigningrequests']);
const viewResources = [
  'configmaps',
  'endpoints',
  'persistentvolumeclaims',
  'persistentvolumeclaims/status',
  'pods',
  'replicationcontrollers',
  'services',
  'serviceaccounts',
  'events',
  'limitranges',
  'resourcequotas',
  'pods/log',
  'pods/status',
  'services/status',
  'namespaces/status',
];

/** The apps workloads and their scale subresources, written by edit and read by view. */
const appsWorkloads = [
  'deployments',
  'replicasets',
  'statefulsets',
  'daemonsets',
  'deployments/scale',
  'replicasets/scale',
];

export function bootstrapClusterRoles(): Role[] {
  return [
    clusterRole('cluster-admin', [rule(['*'], ['*'], ['*']), urls(['*'], ['*'])]),
    clusterRole('system:discovery', [
      urls(
        ['get'],
        [
          '/api',
          '/api/*',
          '/apis',
          '/apis/*',
          '/healthz',
          '/livez',
          '/openapi',
          '/openapi/*',
          '/readyz',
          '/version',
          '/version/',
        ]
      ),
    ]),
    clusterRole('system:basic-user', [
      rule(['create'], [authorization], ['selfsubjectaccessreviews', 'selfsubjectrulesreviews']),
      rule(['create'], [authentication], ['selfsubjectreviews']),
    ]),
    clusterRole('system:public-info-viewer', [
      urls(['get'], ['/healthz', '/livez', '/readyz', '/version', '/version/']),
    ]),
    // What a monitoring system reads from every component's operational server (upstream's
    // system:monitoring, bound to the group of that name).
    clusterRole('system:monitoring', [
      urls(
        ['get'],
        [
          '/metrics',
          '/metrics/slis',
          '/livez',
          '/readyz',
          '/healthz',
          '/livez/*',
          '/readyz/*',
          '/healthz/*',
        ]
      ),
    ]),
    // Delegated authentication and authorization (upstream's system:auth-delegator): what each
    // component's operational server asks the API through its kubeconfigs.
    clusterRole('system:auth-delegator', [
      rule(['create'], [authentication], ['tokenreviews']),
      rule(['create'], [authorization], ['subjectaccessreviews']),
    ]),
    // The user-facing roles, filled by aggregation from the system:aggregate-to-* roles and
    // any role labelled rbac.authorization.orch.io/aggregate-to-<name>: "true".
    clusterRole('admin', [], {}, aggregateLabel('admin')),
    clusterRole('edit', [], { [aggregateLabel('admin')]: 'true' }, aggregateLabel('edit')),
    clusterRole('view', [], { [aggregateLabel('edit')]: 'true' }, aggregateLabel('view')),
    clusterRole(
      'system:aggregate-to-admin',
      [
        rule(write.concat(read), [rbac], ['roles', 'rolebindings']),
        rule(['create'], [authorization], ['localsubjectaccessreviews']),
      ],
      { [aggregateLabel('admin')]: 'true' }
    ),
    clusterRole(
      'system:aggregate-to-edit',
      [
        rule(
          write,
          [core],
          [
            'pods',
            'configmaps',
            'secrets',
            'services',
            'serviceaccounts',
            'endpoints',
            'persistentvolumeclaims',
            'replicationcontrollers',
            'events',
          ]
        ),
        rule(read, [core], ['secrets']),
        rule(['impersonate'], [core], ['serviceaccounts']),
        rule(['create'], [core], ['serviceaccounts/token']),
        rule(write, [apps], appsWorkloads),
        rule(write, [coordination], ['leases']),
        rule(write, [networking], ['networkpolicies', 'ingresses']),
      ],
      { [aggregateLabel('admin')]: 'true', [aggregateLabel('edit')]: 'true' }
    ),
    clusterRole(
      'system:aggregate-to-view',
      [
        rule(read, [core], viewResources),
        rule(['get', 'list', 'watch'], [core], ['namespaces']),
        rule(read, [apps], [...appsWorkloads, 'deployments/status', 'replicasets/status']),
        rule(read, [coordination], ['leases']),
        rule(read, [events], ['events']),
        rule(read, [networking], ['networkpolicies', 'ingresses', 'ingresses/status']),
      ],
      {
        [aggregateLabel('admin')]: 'true',
        [aggregateLabel('edit')]: 'true',
        [aggregateLabel('view')]: 'true',
      }
    ),
    // Node agents (group system:nodes); the NodeRestriction admission narrows them to their node.
    clusterRole('system:node', [
      rule(read.concat(['create', 'update', 'patch', 'delete']), [core], ['nodes']),
      rule(['update', 'patch'], [core], ['nodes/status', 'pods/status']),
      rule(read.concat(['create', 'delete']), [core], ['pods']),
      rule(['create', 'update', 'patch'], [core, events], ['events']),
      rule(read, [core], ['configmaps', 'secrets', 'services', 'serviceaccounts', 'namespaces']),
      rule(['create'], [core], ['serviceaccounts/token']),
      rule(['get', 'create', 'update', 'patch', 'delete'], [coordination], ['leases']),
      rule(['create', 'get', 'list', 'watch'], [certificates], ['certificatesigningrequests']),
      rule(['create'], [authentication], ['tokenreviews']),
      rule(['create'], [authorization], ['subjectaccessreviews', 'localsubjectaccessreviews']),
    ]),
    // Bootstrap tokens request their node client certificate.
    clusterRole('system:node-bootstrapper', [
      rule(['create', 'get', 'list', 'watch'], [certificates], ['certificatesigningrequests']),
    ]),
    // CSR auto-approval (k8s certificatesigningrequests:nodeclient / selfnodeclient).
    clusterRole('system:certificates.orch.io:certificatesigningrequests:nodeclient', [
      rule(['create'], [certificates], ['certificatesigningrequests/nodeclient']),
    ]),
    clusterRole('system:certificates.orch.io:certificatesigningrequests:selfnodeclient', [
      rule(['create'], [certificates], ['certificatesigningrequests/selfnodeclient']),
    ]),
    clusterRole('system:certificates.orch.io:orch-apiserver-client-node-agent-approver', [
      rule(['approve'], [certificates], ['signers'], [clientNodeAgentSigner]),
    ]),
    clusterRole('system:certificates.orch.io:orch-apiserver-client-approver', [
      rule(['approve'], [certificates], ['signers'], [clientSigner]),
    ]),
    // Certificate approver and signer (the spec's certificate-signing table).
    clusterRole('system:controller:certificate-approver', [
      csrRead,
      rule(['update'], [certificates], ['certificatesigningrequests/approval']),
      rule(['approve'], [certificates], ['signers'], [clientNodeAgentSigner]),
      rule(['create'], [authorization], ['subjectaccessreviews']),
    ]),
    clusterRole('system:controller:certificate-signer', [
      csrRead,
      rule(['update'], [certificates], ['certificatesigningrequests/status']),
      rule(
        ['sign'],
        [certificates],
        ['signers'],
        [clientSigner, clientNodeAgentSigner, nodeAgentServingSigner]
      ),
    ]),
    clusterRole('system:controller:certificate-cleaner', [
      rule(read.concat(['delete']), [certificates], ['certificatesigningrequests']),
    ]),
    // The controllers service.
    clusterRole('system:controller:namespace-controller', [
      rule(['get', 'list', 'watch', 'delete', 'deletecollection'], ['*'], ['*']),
      rule(['update'], [core], ['namespaces/finalize', 'namespaces/status']),
    ]),
    clusterRole('system:controller:garbage-collector', [
      rule(['get', 'list', 'watch', 'patch', 'update', 'delete'], ['*'], ['*']),
      rule(['create', 'patch', 'update'], [core, events], ['events']),
    ]),
    // The controllers service's own identity: its leader election Lease and events (k8s
    // system:kube-controller-manager).
    clusterRole('system:orch-controller-manager', [
      rule(['create'], [coordination], ['leases']),
      rule(['get', 'update'], [coordination], ['leases'], ['orch-controller-manager']),
      rule(['create', 'patch', 'update'], [core, events], ['events']),
      // --use-service-account-credentials: each controller's ServiceAccount and its tokens.
      rule(['get', 'create'], [core], ['serviceaccounts']),
      rule(['create'], [core], ['serviceaccounts/token']),
    ]),
    clusterRole('system:controller:resourcequota-controller', [
      rule(['get', 'list', 'watch'], ['*'], ['*']),
      rule(['update'], [core], ['resourcequotas/status']),
    ]),
    // The apiextensions controllers: CRD status, and the cleanup of a
    // deleted CRD's custom objects (upstream runs them inside kube-apiserver).
    clusterRole('system:controller:crd-naming-controller', [
      rule(read, [apiextensionsGroup], ['customresourcedefinitions']),
      rule(['update'], [apiextensionsGroup], ['customresourcedefinitions/status']),
    ]),
    clusterRole('system:controller:crd-establishing-controller', [
      rule(read, [apiextensionsGroup], ['customresourcedefinitions']),
      rule(['update'], [apiextensionsGroup], ['customresourcedefinitions/status']),
    ]),
    clusterRole('system:controller:crd-finalizer', [
      rule(['get', 'list', 'watch', 'delete', 'deletecollection'], ['*'], ['*']),
      rule(
        ['update'],
        [apiextensionsGroup],
        ['customresourcedefinitions', 'customresourcedefinitions/status']
      ),
    ]),
    // The token controller (upstream runs it with kube-controller-manager's own credentials).
    clusterRole('system:controller:tokens-controller', [
      rule(['get', 'list', 'watch', 'update', 'delete'], [core], ['secrets']),
      rule(read, [core], ['serviceaccounts']),
      rule(['create', 'update', 'patch'], [core, events], ['events']),
    ]),
    clusterRole('system:controller:service-account-controller', [
      rule(['create'], [core], ['serviceaccounts']),
      rule(read, [core], ['serviceaccounts', 'namespaces']),
      rule(['create', 'update', 'patch'], [core, events], ['events']),
    ]),
    clusterRole('system:controller:pvc-protection-controller', [
      rule(['get', 'list', 'watch', 'update'], [core], ['persistentvolumeclaims']),
      rule(['list', 'watch', 'get'], [core], ['pods']),
      rule(['create', 'update', 'patch'], [core, events], ['events']),
    ]),
    clusterRole('system:controller:pv-protection-controller', [
      rule(['get', 'list', 'watch', 'update'], [core], ['persistentvolumes']),
      rule(['create', 'update', 'patch'], [core, events], ['events']),
    ]),
    // k8s system:controller:disruption-controller, with the pods it reads through its own informer.
    clusterRole('system:controller:disruption-controller', [
      rule(read, [apps, 'extensions'], ['deployments', 'replicasets']),
      rule(read, [core], ['replicationcontrollers', 'pods']),
      rule(read, [policy], ['poddisruptionbudgets']),
      rule(read, [apps], ['statefulsets']),
      rule(['update'], [policy], ['poddisruptionbudgets/status']),
      rule(['patch', 'update'], [core], ['pods/status']),
      rule(['get'], ['*'], ['*/scale']),
      rule(['create', 'update', 'patch'], [core, events], ['events']),
    ]),
    // k8s system:controller:root-ca-cert-publisher, with the reads of its own informers.
    clusterRole('system:controller:root-ca-cert-publisher', [
      rule(['create', 'update'], [core], ['configmaps']),
      rule(read, [core], ['configmaps', 'namespaces']),
      rule(['create', 'update', 'patch'], [core, events], ['events']),
    ]),
  ];
}

export function bootstrapClusterRoleBindings(): RoleBinding[] {
  const controllers = componentUser('controllers');
  const certificatesService = componentUser('certificates');
  return [
    clusterRoleBinding('cluster-admin', 'cluster-admin', [group('system:masters')]),
    clusterRoleBinding('system:discovery', 'system:discovery', [group('system:authenticated')]),
    clusterRoleBinding('system:basic-user', 'system:basic-user', [group('system:authenticated')]),
    clusterRoleBinding('system:public-info-viewer', 'system:public-info-viewer', [
      group('system:authenticated'),
      group('system:unauthenticated'),
    ]),
    clusterRoleBinding('system:monitoring', 'system:monitoring', [group('system:monitoring')]),
    // Every component certificate (O system:orch-components) delegates its operational server's
    // authentication and authorization to the API.
    clusterRoleBinding('system:orch-components:auth-delegator', 'system:auth-delegator', [
      group(componentsGroup),
    ]),
    clusterRoleBinding('system:node', 'system:node', [group('system:nodes')]),
    clusterRoleBinding('system:node-bootstrapper', 'system:node-bootstrapper', [
      group('system:bootstrappers'),
    ]),
    clusterRoleBinding(
      'system:certificates.orch.io:certificatesigningrequests:nodeclient',
      'system:certificates.orch.io:certificatesigningrequests:nodeclient',
      [group('system:bootstrappers')]
    ),
    clusterRoleBinding(
      'system:certificates.orch.io:certificatesigningrequests:selfnodeclient',
      'system:certificates.orch.io:certificatesigningrequests:selfnodeclient',
      [group('system:nodes')]
    ),
    clusterRoleBinding(
      'system:controller:certificate-approver',
      'system:controller:certificate-approver',
      [user(certificatesService)]
    ),
    clusterRoleBinding(
      'system:controller:certificate-signer',
      'system:controller:certificate-signer',
      [user(certificatesService)]
    ),
    clusterRoleBinding(
      'system:controller:certificate-cleaner',
      'system:controller:certificate-cleaner',
      [user(certificatesService)]
    ),
    clusterRoleBinding(
      'system:controller:namespace-controller',
      'system:controller:namespace-controller',
      [user(controllers), controllerServiceAccount('namespace-controller')]
    ),
    clusterRoleBinding(
      'system:controller:garbage-collector',
      'system:controller:garbage-collector',
      [user(controllers), controllerServiceAccount('garbage-collector')]
    ),
    clusterRoleBinding('system:orch-controller-manager', 'system:orch-controller-manager', [
      user(controllers),
    ]),
    clusterRoleBinding(
      'system:controller:resourcequota-controller',
      'system:controller:resourcequota-controller',
      [user(controllers), controllerServiceAccount('resourcequota-controller')]
    ),
    ...['crd-naming-controller', 'crd-establishing-controller', 'crd-finalizer'].map((sa) =>
      clusterRoleBinding(`system:controller:${sa}`, `system:controller:${sa}`, [
        user(controllers),
        controllerServiceAccount(sa),
      ])
    ),
    clusterRoleBinding(
      'system:controller:tokens-controller',
      'system:controller:tokens-controller',
      [user(controllers), controllerServiceAccount('tokens-controller')]
    ),
    clusterRoleBinding(
      'system:controller:service-account-controller',
      'system:controller:service-account-controller',
      [user(controllers), controllerServiceAccount('service-account-controller')]
    ),
    clusterRoleBinding(
      'system:controller:pvc-protection-controller',
      'system:controller:pvc-protection-controller',
      [user(controllers), controllerServiceAccount('pvc-protection-controller')]
    ),
    clusterRoleBinding(
      'system:controller:pv-protection-controller',
      'system:controller:pv-protection-controller',
      [user(controllers), controllerServiceAccount('pv-protection-controller')]
    ),
    clusterRoleBinding(
      'system:controller:disruption-controller',
      'system:controller:disruption-controller',
      [user(controllers), controllerServiceAccount('disruption-controller')]
    ),
    clusterRoleBinding(
      'system:controller:root-ca-cert-publisher',
      'system:controller:root-ca-cert-publisher',
      [user(controllers), controllerServiceAccount('root-ca-cert-publisher')]
    ),
  ];
}

// Namespaced bootstrap policy (upstream bootstrappolicy's NamespaceRoles/NamespaceRoleBindings
// for kube-system and kube-public, plus kubeadm's cluster-info role): the certificates service's
// bootstrap controllers and its Lease, and anonymous read of cluster-info.
function role(namespace: string, name: string, rules: PolicyRule[]): Role {
  return {
    apiVersion: rbacApiVersion,
    kind: 'Role',
    metadata: { name, namespace, labels: { ...bootstrapLabels }, annotations: { ...autoupdate } },
    rules,
  };
}

function roleBinding(
  namespace: string,
  name: string,
  roleName: string,
  subjects: Subject[]
): RoleBinding {
  return {
    apiVersion: rbacApiVersion,
    kind: 'RoleBinding',
    metadata: { name, namespace, labels: { ...bootstrapLabels }, annotations: { ...autoupdate } },
    roleRef: { apiGroup: rbac, kind: 'Role', name: roleName },
    subjects,
  };
}

export const clusterInfoRoleName = 'system:bootstrap-signer-clusterinfo';
const certificatesLease = 'orch-certificates';

export function bootstrapNamespaceRoles(): Role[] {
  return [
    role('orch-system', 'system:controller:bootstrap-signer', [rule(read, [core], ['secrets'])]),
    role('orch-system', 'system:controller:token-cleaner', [
      rule(read.concat(['delete']), [core], ['secrets']),
      rule(['create', 'update', 'patch'], [core, events], ['events']),
    ]),
    role('orch-system', `system::leader-locking-${certificatesLease}`, [
      rule(['get', 'update'], [coordination], ['leases'], [certificatesLease]),
      rule(['create'], [coordination], ['leases']),
    ]),
    role('orch-public', 'system:controller:bootstrap-signer', [
      rule(read.concat(['create']), [core], ['configmaps']),
      rule(['update'], [core], ['configmaps'], ['cluster-info']),
      rule(['create', 'update', 'patch'], [core, events], ['events']),
    ]),
    role('orch-public', clusterInfoRoleName, [
      rule(['get'], [core], ['configmaps'], ['cluster-info']),
    ]),
  ];
}

export function bootstrapNamespaceRoleBindings(): RoleBinding[] {
  const certificatesService = user(componentUser('certificates'));
  return [
    roleBinding(
      'orch-system',
      'system:controller:bootstrap-signer',
      'system:controller:bootstrap-signer',
      [certificatesService]
    ),
    roleBinding(
      'orch-system',
      'system:controller:token-cleaner',
      'system:controller:token-cleaner',
      [certificatesService]
    ),
    roleBinding(
      'orch-system',
      `system::leader-locking-${certificatesLease}`,
      `system::leader-locking-${certificatesLease}`,
      [certificatesService]
    ),
    roleBinding(
      'orch-public',
      'system:controller:bootstrap-signer',
      'system:controller:bootstrap-signer',
      [certificatesService]
    ),
    roleBinding('orch-public', clusterInfoRoleName, clusterInfoRoleName, [
      user('system:anonymous'),
    ]),
  ];
}
