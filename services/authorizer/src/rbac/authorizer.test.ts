import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bootstrapClusterRoleBindings, bootstrapClusterRoles } from '../bootstrap/policy.js';
import { aggregatedRules } from './aggregation.js';
import { RbacAuthorizer } from './authorizer.js';
import { nonResourceURLMatches, resourceMatches, ruleAllows } from './rule-matcher.js';
import type { RbacSource } from './rule-resolver.js';
import type { Attributes, PolicyRule, Role, RoleBinding, UserInfo } from '@orch/apimachinery/auth';

const alice: UserInfo = { name: 'alice', uid: '', groups: ['system:authenticated'], extra: {} };
const anonymous: UserInfo = {
  name: 'system:anonymous',
  uid: '',
  groups: ['system:unauthenticated'],
  extra: {},
};

const res = (
  user: UserInfo,
  verb: string,
  resource: string,
  extra: Partial<Attributes> = {}
): Attributes => ({
  user,
  verb,
  isResourceRequest: true,
  path: '',
  apiGroup: '',
  apiVersion: 'v1',
  resource,
  subresource: '',
  namespace: '',
  name: '',
  ...extra,
});
const url = (user: UserInfo, verb: string, path: string): Attributes => ({
  user,
  verb,
  isResourceRequest: false,
  path,
  apiGroup: '',
  apiVersion: '',
  resource: '',
  subresource: '',
  namespace: '',
  name: '',
});

class StaticSource implements RbacSource {
  constructor(
    readonly roles: Role[],
    readonly clusterRoles: Role[],
    readonly bindings: RoleBinding[],
    readonly clusterBindings: RoleBinding[]
  ) {}
  getRole(ns: string, name: string): Role | undefined {
    return this.roles.find((r) => r.metadata.namespace === ns && r.metadata.name === name);
  }
  getClusterRole(name: string): Role | undefined {
    return this.clusterRoles.find((r) => r.metadata.name === name);
  }
  listRoleBindings(ns: string): RoleBinding[] {
    return this.bindings.filter((b) => b.metadata.namespace === ns);
  }
  listClusterRoleBindings(): RoleBinding[] {
    return this.clusterBindings;
  }
}

const role = (name: string, rules: PolicyRule[], namespace?: string): Role => ({
  metadata: { name, ...(namespace ? { namespace } : {}) },
  rules,
});
const binding = (
  name: string,
  roleRef: RoleBinding['roleRef'],
  subjects: RoleBinding['subjects'],
  namespace?: string
): RoleBinding => ({
  metadata: { name, ...(namespace ? { namespace } : {}) },
  roleRef,
  subjects,
});

describe('rule matcher', () => {
  it('matches subresources only when named, or through */<sub> and *', () => {
    const r: PolicyRule = { verbs: ['get'], apiGroups: [''], resources: ['pods'] };
    assert.equal(resourceMatches(r, 'pods', ''), true);
    assert.equal(resourceMatches(r, 'pods', 'log'), false);
    assert.equal(resourceMatches({ ...r, resources: ['pods/log'] }, 'pods', 'log'), true);
    assert.equal(resourceMatches({ ...r, resources: ['pods/log'] }, 'pods', ''), false);
    assert.equal(resourceMatches({ ...r, resources: ['*/scale'] }, 'deployments', 'scale'), true);
    assert.equal(resourceMatches({ ...r, resources: ['*/scale'] }, 'deployments', ''), false);
    assert.equal(resourceMatches({ ...r, resources: ['*'] }, 'pods', 'status'), true);
  });

  it('restricts resourceNames to named requests, so list and create are not covered', () => {
    const r: PolicyRule = {
      verbs: ['get', 'list', 'create'],
      apiGroups: [''],
      resources: ['configmaps'],
      resourceNames: ['a'],
    };
    assert.equal(ruleAllows(res(alice, 'get', 'configmaps', { name: 'a' }), r), true);
    assert.equal(ruleAllows(res(alice, 'get', 'configmaps', { name: 'b' }), r), false);
    assert.equal(ruleAllows(res(alice, 'list', 'configmaps'), r), false);
    assert.equal(ruleAllows(res(alice, 'create', 'configmaps'), r), false);
  });

  it('matches verbs and api groups with *, never across groups otherwise', () => {
    const r: PolicyRule = { verbs: ['*'], apiGroups: ['apps'], resources: ['deployments'] };
    assert.equal(
      ruleAllows(res(alice, 'deletecollection', 'deployments', { apiGroup: 'apps' }), r),
      true
    );
    assert.equal(
      ruleAllows(res(alice, 'get', 'deployments', { apiGroup: 'extensions' }), r),
      false
    );
    assert.equal(
      ruleAllows(res(alice, 'get', 'deployments', { apiGroup: 'x' }), { ...r, apiGroups: ['*'] }),
      true
    );
  });

  it('matches nonResourceURLs exactly or by a trailing * prefix', () => {
    const r: PolicyRule = { verbs: ['get'], nonResourceURLs: ['/healthz', '/apis/*'] };
    assert.equal(nonResourceURLMatches(r, '/healthz'), true);
    assert.equal(nonResourceURLMatches(r, '/healthz/etcd'), false);
    assert.equal(nonResourceURLMatches(r, '/apis/'), true);
    assert.equal(nonResourceURLMatches(r, '/apis/apps/v1'), true);
    assert.equal(nonResourceURLMatches(r, '/apis'), false);
    assert.equal(
      nonResourceURLMatches({ verbs: ['get'], nonResourceURLs: ['*'] }, '/anything'),
      true
    );
    assert.equal(ruleAllows(url(alice, 'post', '/healthz'), r), false);
    // A resource rule never covers a path, and a path rule never a resource.
    assert.equal(ruleAllows(res(alice, 'get', 'healthz'), r), false);
  });
});

describe('RBAC authorizer', () => {
  const view = role('view', [
    { verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['configmaps', 'pods'] },
  ]);
  const everything = role('everything', [
    { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
    { verbs: ['*'], nonResourceURLs: ['*'] },
  ]);
  const secretReader = role(
    'secret-reader',
    [{ verbs: ['get'], apiGroups: [''], resources: ['secrets'] }],
    'ns1'
  );

  it('authorizes a RoleBinding to a ClusterRole in its namespace only, and cross-namespace lists need a cluster grant', () => {
    const a = new RbacAuthorizer(
      new StaticSource(
        [],
        [view],
        [
          binding(
            'v',
            { kind: 'ClusterRole', name: 'view' },
            [{ kind: 'User', name: 'alice' }],
            'ns1'
          ),
        ],
        []
      )
    );
    const allowed = a.authorize(res(alice, 'get', 'pods', { namespace: 'ns1', name: 'p' }));
    assert.equal(allowed.decision, 'allow');
    assert.match(
      allowed.reason,
      /RoleBinding "v" in namespace "ns1" of ClusterRole "view" to User "alice"/
    );
    assert.equal(
      a.authorize(res(alice, 'get', 'pods', { namespace: 'ns2', name: 'p' })).decision,
      'no-opinion'
    );
    assert.equal(a.authorize(res(alice, 'list', 'pods')).decision, 'no-opinion');
    assert.equal(
      a.authorize(res(alice, 'delete', 'pods', { namespace: 'ns1', name: 'p' })).decision,
      'no-opinion'
    );
  });

  it('resolves Roles in the binding namespace and reports a missing role as an evaluation error', () => {
    const a = new RbacAuthorizer(
      new StaticSource(
        [secretReader],
        [],
        [
          binding(
            's',
            { kind: 'Role', name: 'secret-reader' },
            [{ kind: 'Group', name: 'devs' }],
            'ns1'
          ),
          binding(
            'gone',
            { kind: 'Role', name: 'missing' },
            [{ kind: 'Group', name: 'devs' }],
            'ns1'
          ),
        ],
        []
      )
    );
    const dev: UserInfo = { ...alice, groups: ['devs'] };
    assert.equal(
      a.authorize(res(dev, 'get', 'secrets', { namespace: 'ns1', name: 'x' })).decision,
      'allow'
    );
    const denied = a.authorize(res(dev, 'list', 'secrets', { namespace: 'ns1' }));
    assert.equal(denied.decision, 'no-opinion');
    assert.match(
      denied.evaluationError ?? '',
      /role.rbac.authorization.orch.io "missing" not found/
    );
    const rules = a.rulesFor(dev, 'ns1');
    assert.equal(rules.incomplete, true);
    assert.deepEqual(rules.resourceRules, [
      { verbs: ['get'], apiGroups: [''], resources: ['secrets'], resourceNames: [] },
    ]);
  });

  it('matches service accounts by system:serviceaccount:<ns>:<name>, defaulting the namespace to the binding', () => {
    const a = new RbacAuthorizer(
      new StaticSource(
        [],
        [view],
        [
          binding(
            'sa',
            { kind: 'ClusterRole', name: 'view' },
            [{ kind: 'ServiceAccount', name: 'robot' }],
            'ns1'
          ),
        ],
        []
      )
    );
    const robot: UserInfo = {
      name: 'system:serviceaccount:ns1:robot',
      uid: '',
      groups: ['system:serviceaccounts'],
      extra: {},
    };
    const other: UserInfo = { ...robot, name: 'system:serviceaccount:ns2:robot' };
    assert.equal(
      a.authorize(res(robot, 'get', 'pods', { namespace: 'ns1', name: 'p' })).decision,
      'allow'
    );
    assert.equal(
      a.authorize(res(other, 'get', 'pods', { namespace: 'ns1', name: 'p' })).decision,
      'no-opinion'
    );
  });

  it('does not let a wildcard subject cover the anonymous user, only an explicit grant', () => {
    const wildcard = new RbacAuthorizer(
      new StaticSource(
        [],
        [everything],
        [],
        [
          binding('all', { kind: 'ClusterRole', name: 'everything' }, [
            { kind: 'Group', name: '*' },
            { kind: 'User', name: '*' },
          ]),
        ]
      )
    );
    assert.equal(
      wildcard.authorize(res(alice, 'delete', 'nodes', { name: 'n' })).decision,
      'allow'
    );
    assert.equal(
      wildcard.authorize(res(anonymous, 'get', 'nodes', { name: 'n' })).decision,
      'no-opinion'
    );
    assert.equal(wildcard.authorize(url(anonymous, 'get', '/healthz')).decision, 'no-opinion');
    const explicit = new RbacAuthorizer(
      new StaticSource(
        [],
        [everything],
        [],
        [
          binding('anon', { kind: 'ClusterRole', name: 'everything' }, [
            { kind: 'Group', name: 'system:unauthenticated' },
          ]),
        ]
      )
    );
    assert.equal(explicit.authorize(url(anonymous, 'get', '/healthz')).decision, 'allow');
  });

  it('does not apply namespaced bindings to non-resource paths', () => {
    const a = new RbacAuthorizer(
      new StaticSource(
        [],
        [everything],
        [
          binding(
            'e',
            { kind: 'ClusterRole', name: 'everything' },
            [{ kind: 'User', name: 'alice' }],
            'ns1'
          ),
        ],
        []
      )
    );
    assert.equal(a.authorize(url(alice, 'get', '/metrics')).decision, 'no-opinion');
    assert.equal(
      a.authorize(res(alice, 'delete', 'pods', { namespace: 'ns1', name: 'p' })).decision,
      'allow'
    );
  });

  it('makes health and version public and everything to system:masters with the bootstrap policy', () => {
    const roles = bootstrapClusterRoles();
    const all = roles.map((r) =>
      r.aggregationRule ? { ...r, rules: aggregatedRules(r, roles) } : r
    );
    const a = new RbacAuthorizer(new StaticSource([], all, [], bootstrapClusterRoleBindings()));
    assert.equal(a.authorize(url(anonymous, 'get', '/healthz')).decision, 'allow');
    assert.equal(a.authorize(url(anonymous, 'get', '/version')).decision, 'allow');
    assert.equal(a.authorize(url(anonymous, 'get', '/apis')).decision, 'no-opinion');
    assert.equal(a.authorize(url(alice, 'get', '/apis/apps/v1')).decision, 'allow');
    assert.equal(
      a.authorize(res(alice, 'get', 'pods', { namespace: 'x', name: 'p' })).decision,
      'no-opinion'
    );
    assert.equal(
      a.authorize(
        res(alice, 'create', 'selfsubjectaccessreviews', { apiGroup: 'authorization.orch.io' })
      ).decision,
      'allow'
    );
    const admin: UserInfo = {
      name: 'orch-admin',
      uid: '',
      groups: ['system:masters', 'system:authenticated'],
      extra: {},
    };
    assert.match(
      a.authorize(
        res(admin, 'escalate', 'clusterroles', { apiGroup: 'rbac.authorization.orch.io' })
      ).reason,
      /ClusterRoleBinding "cluster-admin"/
    );
    const signer: UserInfo = {
      name: 'system:orch:certificates',
      uid: '',
      groups: ['system:orch-components'],
      extra: {},
    };
    const sign = (name: string) =>
      res(signer, 'sign', 'signers', { apiGroup: 'certificates.orch.io', name });
    assert.equal(a.authorize(sign('orch.io/apiserver-client')).decision, 'allow');
    assert.equal(a.authorize(sign('example.com/other')).decision, 'no-opinion');
  });

  it('lets system:monitoring read metrics and health, and components delegate reviews', () => {
    const a = new RbacAuthorizer(
      new StaticSource([], bootstrapClusterRoles(), [], bootstrapClusterRoleBindings())
    );
    const prometheus: UserInfo = {
      name: 'prometheus',
      uid: '',
      groups: ['system:monitoring', 'system:authenticated'],
      extra: {},
    };
    for (const path of ['/metrics', '/metrics/slis', '/readyz/etcd', '/livez/ping'])
      assert.equal(a.authorize(url(prometheus, 'get', path)).decision, 'allow', path);
    assert.equal(a.authorize(url(prometheus, 'get', '/debug/pprof/heap')).decision, 'no-opinion');
    assert.equal(a.authorize(url(prometheus, 'put', '/debug/flags/v')).decision, 'no-opinion');
    assert.equal(a.authorize(url(alice, 'get', '/metrics')).decision, 'no-opinion');
    const storage: UserInfo = {
      name: 'system:orch:storage',
      uid: '',
      groups: ['system:orch-components'],
      extra: {},
    };
    const review = (resource: string, apiGroup: string) =>
      a.authorize(res(storage, 'create', resource, { apiGroup })).decision;
    assert.equal(review('tokenreviews', 'authentication.orch.io'), 'allow');
    assert.equal(review('subjectaccessreviews', 'authorization.orch.io'), 'allow');
    assert.equal(review('selfsubjectrulesreviews', 'authorization.orch.io'), 'no-opinion');
  });
});

describe('aggregation', () => {
  it('unions the rules of the roles the selectors match, deduplicated, in name order, following chains', () => {
    const roles = bootstrapClusterRoles();
    const byName = (n: string) => roles.find((r) => r.metadata.name === n)!;
    const view = aggregatedRules(byName('view'), roles);
    assert.deepEqual(view, byName('system:aggregate-to-view').rules);
    // admin selects edit (labelled aggregate-to-admin) and the system:aggregate-to-* roles.
    const admin = aggregatedRules(byName('admin'), roles);
    for (const r of [
      ...byName('system:aggregate-to-admin').rules!,
      ...byName('system:aggregate-to-edit').rules!,
      ...byName('system:aggregate-to-view').rules!,
    ]) {
      assert.ok(
        admin.some((x) => JSON.stringify(x) === JSON.stringify(r)),
        JSON.stringify(r)
      );
    }
    assert.equal(new Set(admin.map((r) => JSON.stringify(r))).size, admin.length);
    const extra: Role = {
      metadata: {
        name: 'a-custom',
        labels: { 'rbac.authorization.orch.io/aggregate-to-view': 'true' },
      },
      rules: [{ verbs: ['get'], apiGroups: ['x.io'], resources: ['widgets'] }],
    };
    assert.deepEqual(aggregatedRules(byName('view'), [...roles, extra])[0], extra.rules![0]);
    const none: Role = { metadata: { name: 'n' }, aggregationRule: { clusterRoleSelectors: [] } };
    assert.deepEqual(aggregatedRules(none, roles), []);
  });
});

describe('decisions that hold for any name (callers cache them once per resource)', () => {
  const named = role(
    'one-configmap',
    [{ verbs: ['get'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['allowed'] }],
    'ns1'
  );
  const pods = role('pods', [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }], 'ns1');
  const src = new StaticSource(
    [named, pods],
    [],
    [
      binding(
        'b1',
        { apiGroup: 'rbac.authorization.orch.io', kind: 'Role', name: 'one-configmap' },
        [{ kind: 'User', name: 'alice' }],
        'ns1'
      ),
      binding(
        'b2',
        { apiGroup: 'rbac.authorization.orch.io', kind: 'Role', name: 'pods' },
        [{ kind: 'User', name: 'alice' }],
        'ns1'
      ),
    ],
    []
  );
  const z = new RbacAuthorizer(src);
  const get = (resource: string, name: string) =>
    z.authorize(res(alice, 'get', resource, { namespace: 'ns1', name }));

  it('an allow by a rule without resourceNames holds for any name', () => {
    assert.deepEqual(
      [get('pods', 'p1').decision, get('pods', 'p1').nameIndependent],
      ['allow', true]
    );
  });

  it('an allow by a rule naming the object, and a refusal where such a rule applies, depend on the name', () => {
    assert.deepEqual(
      [get('configmaps', 'allowed').decision, get('configmaps', 'allowed').nameIndependent],
      ['allow', false]
    );
    assert.deepEqual(
      [get('configmaps', 'other').decision, get('configmaps', 'other').nameIndependent],
      ['no-opinion', false]
    );
  });

  it('a refusal where no rule names objects holds for any name', () => {
    assert.deepEqual(
      [get('secrets', 's').decision, get('secrets', 's').nameIndependent],
      ['no-opinion', true]
    );
  });
});
