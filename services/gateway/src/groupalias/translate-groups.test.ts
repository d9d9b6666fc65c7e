// Table tests of the upstream group aliases: every aliased group both ways, every field that names
// a group translated in and back out, and bodies (JSON, YAML, binary envelope) rewritten only when
// they are aliased.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse as parseYaml } from 'yaml';
import { decodeEnvelope, encodeEnvelope } from '@orch/apimachinery/protobuf';
import {
  canonicalGroup,
  mapApiVersionGroup,
  upstreamGroup,
  upstreamGroupAliases,
} from '@orch/apimachinery/schema';
import { builtinResources } from '@orch/apimachinery/registry';
import { servedBody } from '../filters/with-group-alias.js';
import { completeGatewayOptions, parseGatewayOptions } from '../options.js';
import {
  groupFieldsByKind,
  mapGroupsInText,
  toServedGroups,
  toUpstreamGroups,
} from './translate-groups.js';

const aliases: [string, string][] = [
  ['admissionregistration.k8s.io', 'admissionregistration.orch.io'],
  ['apiextensions.k8s.io', 'apiextensions.orch.io'],
  ['apiregistration.k8s.io', 'apiregistration.orch.io'],
  ['authentication.k8s.io', 'authentication.orch.io'],
  ['authorization.k8s.io', 'authorization.orch.io'],
  ['certificates.k8s.io', 'certificates.orch.io'],
  ['coordination.k8s.io', 'coordination.orch.io'],
  ['discovery.k8s.io', 'discovery.orch.io'],
  ['events.k8s.io', 'events.orch.io'],
  ['flowcontrol.apiserver.k8s.io', 'flowcontrol.apiserver.orch.io'],
  ['networking.k8s.io', 'networking.orch.io'],
  ['node.k8s.io', 'node.orch.io'],
  ['rbac.authorization.k8s.io', 'rbac.authorization.orch.io'],
  ['scheduling.k8s.io', 'scheduling.orch.io'],
  ['storage.k8s.io', 'storage.orch.io'],
];

test('every aliased group maps both ways, and nothing else moves', () => {
  assert.deepEqual([...upstreamGroupAliases], aliases);
  for (const [upstream, served] of aliases) {
    assert.equal(canonicalGroup(upstream), served, upstream);
    assert.equal(upstreamGroup(served), upstream, served);
    assert.equal(mapApiVersionGroup(`${upstream}/v1`, canonicalGroup), `${served}/v1`);
    assert.equal(mapApiVersionGroup(`${served}/v1beta1`, upstreamGroup), `${upstream}/v1beta1`);
  }
  for (const g of ['', 'apps', 'batch', 'autoscaling', 'policy', 'meta.k8s.io', 'example.com']) {
    assert.equal(canonicalGroup(g), g, `${g} is served under its own name`);
    assert.equal(upstreamGroup(g), g, `${g} has no other name`);
  }
  assert.equal(mapApiVersionGroup('v1', canonicalGroup), 'v1');
});

test('every group served here whose name ends in orch.io has its upstream alias', () => {
  const served = new Set(
    builtinResources.map((d) => d.group).filter((g) => g.endsWith('.orch.io'))
  );
  for (const g of served) assert.notEqual(upstreamGroup(g), g, `${g} has no upstream alias`);
});

// Each row: the kind, the object as an upstream client writes it, and as it is served here.
const rows: { name: string; upstream: Record<string, unknown>; served: Record<string, unknown> }[] =
  [
    {
      name: 'RoleBinding roleRef.apiGroup and subjects[].apiGroup (kubectl create rolebinding)',
      upstream: {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'RoleBinding',
        metadata: { name: 'rb', namespace: 'ns' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'r' },
        subjects: [
          { apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'alice' },
          { kind: 'ServiceAccount', name: 'sa', namespace: 'ns' },
        ],
      },
      served: {
        apiVersion: 'rbac.authorization.orch.io/v1',
        kind: 'RoleBinding',
        metadata: { name: 'rb', namespace: 'ns' },
        roleRef: { apiGroup: 'rbac.authorization.orch.io', kind: 'Role', name: 'r' },
        subjects: [
          { apiGroup: 'rbac.authorization.orch.io', kind: 'User', name: 'alice' },
          { kind: 'ServiceAccount', name: 'sa', namespace: 'ns' },
        ],
      },
    },
    {
      name: 'ClusterRoleBinding roleRef.apiGroup and subjects[].apiGroup',
      upstream: {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRoleBinding',
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'c' },
        subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'devs' }],
      },
      served: {
        apiVersion: 'rbac.authorization.orch.io/v1',
        kind: 'ClusterRoleBinding',
        roleRef: { apiGroup: 'rbac.authorization.orch.io', kind: 'ClusterRole', name: 'c' },
        subjects: [{ apiGroup: 'rbac.authorization.orch.io', kind: 'Group', name: 'devs' }],
      },
    },
    {
      name: 'Role and ClusterRole rules[].apiGroups (core, unrenamed and renamed groups)',
      upstream: {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRole',
        rules: [
          { apiGroups: ['', 'apps', 'networking.k8s.io'], resources: ['*'], verbs: ['get'] },
          { nonResourceURLs: ['/healthz'], verbs: ['get'] },
        ],
      },
      served: {
        apiVersion: 'rbac.authorization.orch.io/v1',
        kind: 'ClusterRole',
        rules: [
          { apiGroups: ['', 'apps', 'networking.orch.io'], resources: ['*'], verbs: ['get'] },
          { nonResourceURLs: ['/healthz'], verbs: ['get'] },
        ],
      },
    },
    ...['SubjectAccessReview', 'LocalSubjectAccessReview', 'SelfSubjectAccessReview'].map(
      (kind) => ({
        name: `${kind} spec.resourceAttributes.group (kubectl auth can-i)`,
        upstream: {
          apiVersion: 'authorization.k8s.io/v1',
          kind,
          spec: {
            resourceAttributes: { group: 'certificates.k8s.io', resource: 'csr', verb: 'get' },
          },
        },
        served: {
          apiVersion: 'authorization.orch.io/v1',
          kind,
          spec: {
            resourceAttributes: { group: 'certificates.orch.io', resource: 'csr', verb: 'get' },
          },
        },
      })
    ),
    {
      name: 'SelfSubjectRulesReview status.resourceRules[].apiGroups (kubectl auth can-i --list)',
      upstream: {
        apiVersion: 'authorization.k8s.io/v1',
        kind: 'SelfSubjectRulesReview',
        status: { resourceRules: [{ apiGroups: ['authentication.k8s.io'], verbs: ['create'] }] },
      },
      served: {
        apiVersion: 'authorization.orch.io/v1',
        kind: 'SelfSubjectRulesReview',
        status: { resourceRules: [{ apiGroups: ['authentication.orch.io'], verbs: ['create'] }] },
      },
    },
    {
      name: 'TokenRequest apiVersion on the core path (kubectl create token)',
      upstream: {
        apiVersion: 'authentication.k8s.io/v1',
        kind: 'TokenRequest',
        spec: { audiences: ['a'] },
      },
      served: {
        apiVersion: 'authentication.orch.io/v1',
        kind: 'TokenRequest',
        spec: { audiences: ['a'] },
      },
    },
    ...['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration'].map((kind) => ({
      name: `${kind} webhooks[].rules[].apiGroups`,
      upstream: {
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind,
        webhooks: [{ name: 'w', rules: [{ apiGroups: ['storage.k8s.io', ''], resources: ['*'] }] }],
      },
      served: {
        apiVersion: 'admissionregistration.orch.io/v1',
        kind,
        webhooks: [
          { name: 'w', rules: [{ apiGroups: ['storage.orch.io', ''], resources: ['*'] }] },
        ],
      },
    })),
    {
      name: 'ValidatingAdmissionPolicy matchConstraints rules and paramKind.apiVersion',
      upstream: {
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'ValidatingAdmissionPolicy',
        spec: {
          paramKind: { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role' },
          matchConstraints: {
            resourceRules: [{ apiGroups: ['node.k8s.io'] }],
            excludeResourceRules: [{ apiGroups: ['events.k8s.io'] }],
          },
        },
      },
      served: {
        apiVersion: 'admissionregistration.orch.io/v1',
        kind: 'ValidatingAdmissionPolicy',
        spec: {
          paramKind: { apiVersion: 'rbac.authorization.orch.io/v1', kind: 'Role' },
          matchConstraints: {
            resourceRules: [{ apiGroups: ['node.orch.io'] }],
            excludeResourceRules: [{ apiGroups: ['events.orch.io'] }],
          },
        },
      },
    },
    {
      name: 'ValidatingAdmissionPolicyBinding matchResources rules',
      upstream: {
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'ValidatingAdmissionPolicyBinding',
        spec: { matchResources: { resourceRules: [{ apiGroups: ['discovery.k8s.io'] }] } },
      },
      served: {
        apiVersion: 'admissionregistration.orch.io/v1',
        kind: 'ValidatingAdmissionPolicyBinding',
        spec: { matchResources: { resourceRules: [{ apiGroups: ['discovery.orch.io'] }] } },
      },
    },
    {
      name: 'Ingress resource backends (kubectl create ingress writes service backends, kept)',
      upstream: {
        apiVersion: 'networking.k8s.io/v1',
        kind: 'Ingress',
        spec: {
          defaultBackend: {
            resource: { apiGroup: 'storage.k8s.io', kind: 'StorageClass', name: 's' },
          },
          rules: [
            {
              http: {
                paths: [
                  { path: '/', backend: { service: { name: 'svc', port: { number: 80 } } } },
                  {
                    path: '/b',
                    backend: { resource: { apiGroup: 'node.k8s.io', kind: 'K', name: 'n' } },
                  },
                ],
              },
            },
          ],
        },
      },
      served: {
        apiVersion: 'networking.orch.io/v1',
        kind: 'Ingress',
        spec: {
          defaultBackend: {
            resource: { apiGroup: 'storage.orch.io', kind: 'StorageClass', name: 's' },
          },
          rules: [
            {
              http: {
                paths: [
                  { path: '/', backend: { service: { name: 'svc', port: { number: 80 } } } },
                  {
                    path: '/b',
                    backend: { resource: { apiGroup: 'node.orch.io', kind: 'K', name: 'n' } },
                  },
                ],
              },
            },
          ],
        },
      },
    },
    {
      name: 'IngressClass spec.parameters.apiGroup',
      upstream: {
        apiVersion: 'networking.k8s.io/v1',
        kind: 'IngressClass',
        spec: { parameters: { apiGroup: 'networking.k8s.io', kind: 'P', name: 'p' } },
      },
      served: {
        apiVersion: 'networking.orch.io/v1',
        kind: 'IngressClass',
        spec: { parameters: { apiGroup: 'networking.orch.io', kind: 'P', name: 'p' } },
      },
    },
    {
      name: 'PersistentVolumeClaim dataSource and dataSourceRef apiGroup (core object)',
      upstream: {
        apiVersion: 'v1',
        kind: 'PersistentVolumeClaim',
        spec: {
          dataSource: { apiGroup: 'storage.k8s.io', kind: 'X', name: 'x' },
          dataSourceRef: { apiGroup: 'storage.k8s.io', kind: 'X', name: 'x' },
        },
      },
      served: {
        apiVersion: 'v1',
        kind: 'PersistentVolumeClaim',
        spec: {
          dataSource: { apiGroup: 'storage.orch.io', kind: 'X', name: 'x' },
          dataSourceRef: { apiGroup: 'storage.orch.io', kind: 'X', name: 'x' },
        },
      },
    },
    {
      name: 'HorizontalPodAutoscaler scaleTargetRef.apiVersion',
      upstream: {
        apiVersion: 'autoscaling/v2',
        kind: 'HorizontalPodAutoscaler',
        spec: { scaleTargetRef: { apiVersion: 'networking.k8s.io/v1', kind: 'K', name: 'k' } },
      },
      served: {
        apiVersion: 'autoscaling/v2',
        kind: 'HorizontalPodAutoscaler',
        spec: { scaleTargetRef: { apiVersion: 'networking.orch.io/v1', kind: 'K', name: 'k' } },
      },
    },
    {
      name: 'metadata ownerReferences[].apiVersion and managedFields[].apiVersion of any kind',
      upstream: {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: {
          ownerReferences: [
            {
              apiVersion: 'certificates.k8s.io/v1',
              kind: 'CertificateSigningRequest',
              name: 'c',
              uid: 'u',
            },
            { apiVersion: 'apps/v1', kind: 'Deployment', name: 'd', uid: 'v' },
          ],
          managedFields: [
            { manager: 'm', apiVersion: 'coordination.k8s.io/v1', operation: 'Update' },
          ],
        },
      },
      served: {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: {
          ownerReferences: [
            {
              apiVersion: 'certificates.orch.io/v1',
              kind: 'CertificateSigningRequest',
              name: 'c',
              uid: 'u',
            },
            { apiVersion: 'apps/v1', kind: 'Deployment', name: 'd', uid: 'v' },
          ],
          managedFields: [
            { manager: 'm', apiVersion: 'coordination.orch.io/v1', operation: 'Update' },
          ],
        },
      },
    },
    {
      name: 'Status details.group and message (a 404 under an alias names the group asked)',
      upstream: {
        apiVersion: 'v1',
        kind: 'Status',
        message: 'roles.rbac.authorization.k8s.io "r" not found',
        code: 404,
        details: { name: 'r', group: 'rbac.authorization.k8s.io', kind: 'roles' },
      },
      served: {
        apiVersion: 'v1',
        kind: 'Status',
        message: 'roles.rbac.authorization.orch.io "r" not found',
        code: 404,
        details: { name: 'r', group: 'rbac.authorization.orch.io', kind: 'roles' },
      },
    },
    {
      name: 'Status message and causes of a 422 (Kind.group, and a group quoted as a value)',
      upstream: {
        apiVersion: 'v1',
        kind: 'Status',
        message:
          'RoleBinding.rbac.authorization.k8s.io "b" is invalid: roleRef.apiGroup: Unsupported value: "authorization.k8s.io": supported values: "rbac.authorization.k8s.io"',
        details: {
          name: 'b',
          group: 'rbac.authorization.k8s.io',
          kind: 'RoleBinding',
          causes: [
            {
              reason: 'FieldValueNotSupported',
              message:
                'Unsupported value: "authorization.k8s.io": supported values: "rbac.authorization.k8s.io"',
              field: 'roleRef.apiGroup',
            },
          ],
        },
        code: 422,
      },
      served: {
        apiVersion: 'v1',
        kind: 'Status',
        message:
          'RoleBinding.rbac.authorization.orch.io "b" is invalid: roleRef.apiGroup: Unsupported value: "authorization.orch.io": supported values: "rbac.authorization.orch.io"',
        details: {
          name: 'b',
          group: 'rbac.authorization.orch.io',
          kind: 'RoleBinding',
          causes: [
            {
              reason: 'FieldValueNotSupported',
              message:
                'Unsupported value: "authorization.orch.io": supported values: "rbac.authorization.orch.io"',
              field: 'roleRef.apiGroup',
            },
          ],
        },
        code: 422,
      },
    },
    {
      name: 'Status message of a 403 (the resource and "in API group")',
      upstream: {
        apiVersion: 'v1',
        kind: 'Status',
        message:
          'clusterroles.rbac.authorization.k8s.io "c" is forbidden: User "u" cannot get resource "clusterroles" in API group "rbac.authorization.k8s.io" at the cluster scope',
        reason: 'Forbidden',
        code: 403,
      },
      served: {
        apiVersion: 'v1',
        kind: 'Status',
        message:
          'clusterroles.rbac.authorization.orch.io "c" is forbidden: User "u" cannot get resource "clusterroles" in API group "rbac.authorization.orch.io" at the cluster scope',
        reason: 'Forbidden',
        code: 403,
      },
    },
    {
      name: 'a list: its apiVersion and each item (items without kind take the list kind)',
      upstream: {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'RoleBindingList',
        metadata: { resourceVersion: '5' },
        items: [
          {
            metadata: { name: 'a' },
            roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'r' },
          },
          {
            apiVersion: 'rbac.authorization.k8s.io/v1',
            kind: 'RoleBinding',
            metadata: { name: 'b' },
            roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'c' },
          },
        ],
      },
      served: {
        apiVersion: 'rbac.authorization.orch.io/v1',
        kind: 'RoleBindingList',
        metadata: { resourceVersion: '5' },
        items: [
          {
            metadata: { name: 'a' },
            roleRef: { apiGroup: 'rbac.authorization.orch.io', kind: 'Role', name: 'r' },
          },
          {
            apiVersion: 'rbac.authorization.orch.io/v1',
            kind: 'RoleBinding',
            metadata: { name: 'b' },
            roleRef: { apiGroup: 'rbac.authorization.orch.io', kind: 'ClusterRole', name: 'c' },
          },
        ],
      },
    },
    {
      name: 'a watch event: its object',
      upstream: {
        type: 'ADDED',
        object: { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', value: 10 },
      },
      served: {
        type: 'ADDED',
        object: { apiVersion: 'scheduling.orch.io/v1', kind: 'PriorityClass', value: 10 },
      },
    },
  ];

for (const row of rows) {
  test(`in and out: ${row.name}`, () => {
    const upstream = structuredClone(row.upstream);
    assert.deepEqual(toServedGroups(upstream), row.served, 'upstream → served');
    assert.deepEqual(toUpstreamGroups(row.served), row.upstream, 'served → upstream');
    assert.deepEqual(upstream, row.upstream, 'the input is left as it was');
  });
}

test('every kind with group fields has a row', () => {
  const covered = new Set(
    rows.map((r) => String(r.upstream['kind'] ?? (r.upstream['object'] as any)?.['kind']))
  );
  for (const kind of Object.keys(groupFieldsByKind)) {
    const rowKind = kind === 'Role' ? 'ClusterRole' : kind; // one rules[] row covers both
    assert.ok(covered.has(rowKind), `${kind} has no row`);
  }
});

test('groups named in values that are not group fields stay as written', () => {
  const cm = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    data: { group: 'rbac.authorization.k8s.io', apiGroup: 'networking.k8s.io' },
    metadata: { labels: { 'app.k8s.io/name': 'x' } },
  };
  assert.deepEqual(toServedGroups(cm), cm);
});

test('group names in a message: only an aliased group moves, at a dot or as a whole name', () => {
  const rows: [string, string][] = [
    ['deployments.apps "d" not found', 'deployments.apps "d" not found'],
    ['widgets.example.com "w" not found', 'widgets.example.com "w" not found'],
    [
      'Operation cannot be fulfilled on leases.coordination.orch.io "l": the object has been modified; please apply your changes to the latest version and try again',
      'Operation cannot be fulfilled on leases.coordination.k8s.io "l": the object has been modified; please apply your changes to the latest version and try again',
    ],
    [
      'rbac.authorization.orch.io.example.com and rbac-authorization.orch.io',
      'rbac.authorization.orch.io.example.com and rbac-authorization.orch.io',
    ],
    [
      'storageclasses.storage.orch.io "s" already exists',
      'storageclasses.storage.k8s.io "s" already exists',
    ],
  ];
  for (const [served, upstream] of rows)
    assert.equal(mapGroupsInText(served, upstreamGroup), upstream, served);
});

const sa = {
  apiVersion: 'authentication.k8s.io/v1',
  kind: 'TokenRequest',
  spec: { audiences: ['api'], expirationSeconds: 600 },
};
const served = { ...sa, apiVersion: 'authentication.orch.io/v1' };

test('bodies: JSON, merge patch and YAML are rewritten when aliased, in their own format', () => {
  const json = servedBody(Buffer.from(JSON.stringify(sa)), 'application/json', false);
  assert.deepEqual(JSON.parse(String(json)), served, 'a body naming an upstream apiVersion');
  const patch = { roleRef: { apiGroup: 'rbac.authorization.k8s.io' } };
  const merged = servedBody(
    Buffer.from(JSON.stringify(patch)),
    'application/merge-patch+json',
    true,
    'RoleBinding'
  );
  assert.deepEqual(JSON.parse(String(merged)), {
    roleRef: { apiGroup: 'rbac.authorization.orch.io' },
  });
  const yaml = servedBody(
    Buffer.from(
      'apiVersion: authentication.k8s.io/v1\nkind: TokenRequest\nspec:\n  audiences: [api]\n  expirationSeconds: 600\n'
    ),
    'application/apply-patch+yaml',
    false
  );
  assert.deepEqual(parseYaml(String(yaml)), served);
});

test('bodies: the binary envelope in upstream apiVersion decodes, and is re-encoded served', () => {
  const [upstream, served] = [rows[0]!.upstream, rows[0]!.served]; // RoleBinding
  const env = encodeEnvelope(upstream);
  assert.deepEqual(decodeEnvelope(env), upstream, 'the envelope keeps the name it was given');
  const out = servedBody(env, 'application/vnd.kubernetes.protobuf', false);
  assert.ok(out);
  assert.deepEqual(decodeEnvelope(out), served);
});

test('bodies left as sent: not aliased, not an object, unreadable, a JSON patch', () => {
  const cases: [string, Buffer, string, boolean][] = [
    ['served names', Buffer.from(JSON.stringify(served)), 'application/json', false],
    [
      'no upstream name',
      Buffer.from('{"apiVersion":"v1","kind":"ConfigMap"}'),
      'application/json',
      false,
    ],
    [
      'upstream name only in data',
      Buffer.from(
        '{"apiVersion":"v1","kind":"ConfigMap","data":{"a":"rbac.authorization.k8s.io/v1"}}'
      ),
      'application/json',
      false,
    ],
    [
      'malformed JSON',
      Buffer.from('{"apiVersion":"authentication.k8s.io/v1"'),
      'application/json',
      true,
    ],
    [
      'an array',
      Buffer.from('[{"op":"add","path":"/a","value":"x.k8s.io"}]'),
      'application/json-patch+json',
      true,
    ],
    ['empty', Buffer.alloc(0), 'application/json', true],
    ['bad envelope', Buffer.from('k8s\0garbage'), 'application/vnd.kubernetes.protobuf', true],
    ['another media type', Buffer.from('{}'), 'text/plain', true],
  ];
  for (const [name, body, ct, aliased] of cases)
    assert.equal(servedBody(body, ct, aliased), undefined, name);
});

test('--upstream-group-aliases: on by default, false turns it off, anything else stops the start naming the flag', () => {
  const opts = (args: string[]) => completeGatewayOptions(parseGatewayOptions(args));
  assert.equal(opts([]).upstreamGroupAliases, true);
  assert.equal(opts(['--upstream-group-aliases=false']).upstreamGroupAliases, false);
  assert.equal(opts(['--upstream-group-aliases=true']).upstreamGroupAliases, true);
  assert.deepEqual(
    opts(['--upstream-group-aliases=maybe']).problems.filter((p) => p.includes('upstream')),
    ['--upstream-group-aliases: want true or false, got "maybe"']
  );
});
