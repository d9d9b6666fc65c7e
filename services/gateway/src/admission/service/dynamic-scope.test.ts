// The dynamic admission scope over its inputs: real watch caches (WatchCache, filled as a
// Reflector fills them) holding webhook configurations, policies, bindings and quotas, and
// writes of several resources, operations and subresources. No process.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { WatchCache } from '../../cache/watch-cache.js';
import { dynamicAdmissionScope, ruleMayMatch } from './dynamic-scope.js';
import type { DynamicScopeSources, ScopeAttributes } from './dynamic-scope.js';

type Obj = Record<string, unknown>;

const synced = (items: Obj[] = []): WatchCache => {
  const c = new WatchCache({ prefix: '/registry/x/' });
  c.replace(items, 1);
  return c;
};

const write = (
  o: Partial<Omit<ScopeAttributes, 'resource'>> & { resource?: string; group?: string }
): ScopeAttributes => {
  const { resource, group, ...rest } = o;
  return {
    operation: 'CREATE',
    resource: { group: group ?? '', version: 'v1', resource: resource ?? 'configmaps' },
    subresource: '',
    namespace: 'ns1',
    object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } },
    ...rest,
  } as ScopeAttributes;
};

const webhookConfig = (name: string, rules: Obj[]): Obj => ({
  apiVersion: 'admissionregistration.orch.io/v1',
  kind: 'ValidatingWebhookConfiguration',
  metadata: { name },
  webhooks: [{ name: 'w.example.com', rules }],
});

const rule = (
  r: Partial<Record<'operations' | 'apiGroups' | 'apiVersions' | 'resources', string[]>>
) => ({
  operations: ['CREATE'],
  apiGroups: [''],
  apiVersions: ['v1'],
  resources: ['configmaps'],
  ...r,
});

const allSynced = (over: Partial<DynamicScopeSources> = {}): DynamicScopeSources => ({
  mutatingWebhookConfigurations: synced(),
  validatingWebhookConfigurations: synced(),
  validatingAdmissionPolicies: synced(),
  validatingAdmissionPolicyBindings: synced(),
  resourceQuotas: synced(),
  quotaLimitedResources: () => false,
  ...over,
});

describe('dynamic admission scope', () => {
  it('nothing configured, every cache synced: no dynamic plugin may act', () => {
    const s = dynamicAdmissionScope(allSynced());
    for (const n of [
      'mutatingWebhooks',
      'validatingWebhooks',
      'validatingPolicies',
      'resourceQuotas',
    ] as const)
      assert.equal(s.mayAct(n, write({})), false, n);
  });

  it('a cache not synced yet, or a kind not served: its plugin may act (fail closed)', () => {
    const pending = new WatchCache({ prefix: '/registry/x/' });
    const s = dynamicAdmissionScope(
      allSynced({ validatingWebhookConfigurations: pending, resourceQuotas: pending })
    );
    assert.equal(s.mayAct('validatingWebhooks', write({})), true);
    assert.equal(s.mayAct('resourceQuotas', write({})), true);
    assert.equal(s.mayAct('mutatingWebhooks', write({})), false);
    const missing = dynamicAdmissionScope({ quotaLimitedResources: () => false });
    assert.equal(missing.mayAct('mutatingWebhooks', write({})), true);
    assert.equal(missing.mayAct('validatingPolicies', write({})), true);
    // Synced later: the same scope now proves the plugin idle.
    pending.replace([], 2);
    assert.equal(s.mayAct('validatingWebhooks', write({})), false);
  });

  it('webhooks: a configuration whose rules could match the write; only of its own kind', () => {
    const validating = synced([webhookConfig('v', [rule({})])]);
    const s = dynamicAdmissionScope(allSynced({ validatingWebhookConfigurations: validating }));
    assert.equal(s.mayAct('validatingWebhooks', write({})), true);
    assert.equal(s.mayAct('mutatingWebhooks', write({})), false);
    assert.equal(s.mayAct('validatingWebhooks', write({ resource: 'secrets' })), false);
    assert.equal(s.mayAct('validatingWebhooks', write({ operation: 'DELETE' })), false);
    // Deleted: idle again.
    validating.change('DELETED', webhookConfig('v', [rule({})]), 2);
    assert.equal(s.mayAct('validatingWebhooks', write({})), false);
  });

  it('rule matching: operations, groups, resources and subresource forms as upstream; any version', () => {
    const cm = write({});
    const status = write({ subresource: 'status', operation: 'UPDATE' });
    const deploy = write({ group: 'apps', resource: 'deployments' });
    const table: [Obj, ScopeAttributes, boolean][] = [
      [rule({}), cm, true],
      [rule({ apiVersions: ['v2'] }), cm, true], // version not looked at (Equivalent)
      [rule({ operations: ['*'] }), status, false], // `configmaps` is not its status
      [rule({ operations: ['*'], resources: ['configmaps/*'] }), status, true],
      [rule({ operations: ['*'], resources: ['configmaps/*'] }), cm, true],
      [rule({ operations: ['*'], resources: ['*/status'] }), status, true],
      [rule({ operations: ['*'], resources: ['*/status'] }), cm, false],
      [rule({ resources: ['*'] }), cm, true],
      [rule({ operations: ['*'], resources: ['*'] }), status, false],
      [rule({ operations: ['*'], resources: ['*/*'] }), status, true],
      [rule({ operations: ['UPDATE'] }), cm, false],
      [rule({ resources: ['*'] }), deploy, false], // core group only
      [rule({ apiGroups: ['*'], resources: ['*'] }), deploy, true],
      [rule({ apiGroups: ['apps'], resources: ['deployments'] }), deploy, true],
      [{ operations: ['CREATE'], apiGroups: [''] }, cm, false], // no resources: matches nothing
    ];
    for (const [r, a, want] of table)
      assert.equal(ruleMayMatch(r, a), want, `${JSON.stringify(r)} on ${JSON.stringify(a)}`);
  });

  it('policies: a binding naming an existing policy whose constraints (and the binding) could match', () => {
    const policy = (name: string, resources: string[]): Obj => ({
      metadata: { name },
      spec: { matchConstraints: { resourceRules: [rule({ resources })] } },
    });
    const binding = (name: string, policyName: string, matchResources?: Obj): Obj => ({
      metadata: { name },
      spec: { policyName, ...(matchResources ? { matchResources } : {}) },
    });
    const policies = synced([policy('p-cm', ['configmaps']), policy('p-sec', ['secrets'])]);
    const bindings = synced([binding('b-missing', 'nope')]);
    const s = dynamicAdmissionScope(
      allSynced({
        validatingAdmissionPolicies: policies,
        validatingAdmissionPolicyBindings: bindings,
      })
    );
    // A policy without a binding, or a binding without its policy: idle.
    assert.equal(s.mayAct('validatingPolicies', write({})), false);
    bindings.change('ADDED', binding('b-sec', 'p-sec'), 2);
    assert.equal(s.mayAct('validatingPolicies', write({})), false);
    assert.equal(s.mayAct('validatingPolicies', write({ resource: 'secrets' })), true);
    // The binding narrows: its matchResources must match too.
    bindings.change(
      'ADDED',
      binding('b-cm', 'p-cm', { resourceRules: [rule({ resources: ['secrets'] })] }),
      3
    );
    assert.equal(s.mayAct('validatingPolicies', write({})), false);
    bindings.change('ADDED', binding('b-cm2', 'p-cm', { namespaceSelector: {} }), 4);
    assert.equal(s.mayAct('validatingPolicies', write({})), true);
    // A policy without matchConstraints rules: may act on anything.
    const open = dynamicAdmissionScope(
      allSynced({
        validatingAdmissionPolicies: synced([{ metadata: { name: 'p' }, spec: {} }]),
        validatingAdmissionPolicyBindings: synced([binding('b', 'p')]),
      })
    );
    assert.equal(open.mayAct('validatingPolicies', write({ resource: 'anything' })), true);
  });

  it('quota: a ResourceQuota in the namespace of a create or update of an object itself', () => {
    const quotas = synced([
      { apiVersion: 'v1', kind: 'resourceQuotas', metadata: { name: 'q', namespace: 'ns2' } },
    ]);
    let limited = false;
    const s = dynamicAdmissionScope(
      allSynced({ resourceQuotas: quotas, quotaLimitedResources: () => limited })
    );
    assert.equal(s.mayAct('resourceQuotas', write({})), false);
    assert.equal(s.mayAct('resourceQuotas', write({ namespace: 'ns2' })), true);
    assert.equal(
      s.mayAct('resourceQuotas', write({ namespace: 'ns2', operation: 'UPDATE' })),
      true
    );
    assert.equal(
      s.mayAct('resourceQuotas', write({ namespace: 'ns2', operation: 'DELETE' })),
      false
    );
    assert.equal(
      s.mayAct(
        'resourceQuotas',
        write({ namespace: 'ns2', subresource: 'status', operation: 'UPDATE' })
      ),
      false
    );
    assert.equal(s.mayAct('resourceQuotas', write({ namespace: '', resource: 'nodes' })), false);
    // Counted by namespace through the cache's events: added, updated, deleted, relisted.
    const q3 = {
      apiVersion: 'v1',
      kind: 'resourceQuotas',
      metadata: { name: 'q', namespace: 'ns3' },
    };
    assert.equal(s.mayAct('resourceQuotas', write({ namespace: 'ns3' })), false);
    quotas.change('ADDED', q3, 2);
    quotas.change('MODIFIED', { ...q3, spec: { hard: { pods: '1' } } }, 3);
    assert.equal(s.mayAct('resourceQuotas', write({ namespace: 'ns3' })), true);
    quotas.change('DELETED', q3, 4);
    assert.equal(s.mayAct('resourceQuotas', write({ namespace: 'ns3' })), false);
    assert.equal(s.mayAct('resourceQuotas', write({ namespace: 'ns2' })), true);
    quotas.replace([q3], 5);
    assert.equal(s.mayAct('resourceQuotas', write({ namespace: 'ns2' })), false);
    assert.equal(s.mayAct('resourceQuotas', write({ namespace: 'ns3' })), true);
    // limitedResources configured in the service: any namespaced create may be refused.
    limited = true;
    assert.equal(s.mayAct('resourceQuotas', write({})), true);
    // Not told (no answer from the service yet): it may.
    const untold = dynamicAdmissionScope({ ...allSynced(), quotaLimitedResources: undefined });
    assert.equal(untold.mayAct('resourceQuotas', write({})), true);
  });
});

describe('dynamic admission scope: PodSecurity on pod controllers', () => {
  const namespace = (name: string, labels?: Record<string, string>): Obj => ({
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name, ...(labels && { labels }) },
  });
  const podSecurity = {
    defaultAuditLevel: 'privileged',
    defaultWarnLevel: 'privileged',
    exemptNamespaces: [] as string[],
    exemptUsernames: [] as string[],
  };
  const deployment = (over: Partial<Omit<ScopeAttributes, 'resource'>> = {}): ScopeAttributes =>
    write({ resource: 'deployments', group: 'apps', operation: 'UPDATE', ...over });
  const user = { name: 'alice', uid: '', groups: [], extra: {} };
  const scope = (
    namespaces: Obj[],
    config: typeof podSecurity | null = podSecurity
  ): ReturnType<typeof dynamicAdmissionScope> =>
    dynamicAdmissionScope(
      allSynced({ namespaces: synced(namespaces), podSecurity: () => config ?? undefined })
    );

  it('warn and audit privileged (labels or defaults), nothing exempt: it cannot act', () => {
    const s = scope([
      namespace('ns1'),
      namespace('labelled', {
        'pod-security.orch.io/warn': 'privileged',
        'pod-security.orch.io/audit': 'privileged',
        'pod-security.orch.io/enforce': 'restricted',
        'pod-security.orch.io/warn-version': 'v1.20',
      }),
    ]);
    assert.equal(s.mayAct('podSecurity', deployment({ user })), false);
    assert.equal(s.mayAct('podSecurity', deployment({ namespace: 'labelled', user })), false);
    for (const [group, resource] of [
      ['', 'podtemplates'],
      ['', 'replicationcontrollers'],
      ['apps', 'statefulsets'],
      ['apps', 'daemonsets'],
      ['apps', 'replicasets'],
      ['batch', 'jobs'],
      ['batch', 'cronjobs'],
    ] as const)
      assert.equal(s.mayAct('podSecurity', write({ group, resource, user })), false, resource);
  });

  it('pods and namespaces: it may act whatever the levels (enforce, label checks)', () => {
    const s = scope([namespace('ns1')]);
    assert.equal(s.mayAct('podSecurity', write({ resource: 'pods', user })), true);
    assert.equal(
      s.mayAct('podSecurity', write({ resource: 'namespaces', namespace: '', user })),
      true
    );
  });

  it('a warn or audit level other than privileged, by label or default: it may act', () => {
    const s = scope([
      namespace('warned', { 'pod-security.orch.io/warn': 'baseline' }),
      namespace('audited', { 'pod-security.orch.io/audit': 'restricted' }),
      // An invalid level is evaluated as restricted.
      namespace('invalid', { 'pod-security.orch.io/warn': 'bogus' }),
      namespace('relaxed', { 'pod-security.orch.io/warn': 'privileged' }),
    ]);
    for (const ns of ['warned', 'audited', 'invalid'])
      assert.equal(s.mayAct('podSecurity', deployment({ namespace: ns, user })), true, ns);
    const strict = scope(
      [
        namespace('ns1'),
        namespace('relaxed', {
          'pod-security.orch.io/warn': 'privileged',
          'pod-security.orch.io/audit': 'privileged',
        }),
      ],
      {
        ...podSecurity,
        defaultWarnLevel: 'baseline',
      }
    );
    assert.equal(strict.mayAct('podSecurity', deployment({ user })), true);
    assert.equal(strict.mayAct('podSecurity', deployment({ namespace: 'relaxed', user })), false);
  });

  it('an exempt namespace or user (an audit annotation): it may act', () => {
    const s = scope([namespace('ns1')], {
      ...podSecurity,
      exemptNamespaces: ['ns1'],
    });
    assert.equal(s.mayAct('podSecurity', deployment({ user })), true);
    const byUser = scope([namespace('ns1')], { ...podSecurity, exemptUsernames: ['alice'] });
    assert.equal(byUser.mayAct('podSecurity', deployment({ user })), true);
    assert.equal(
      byUser.mayAct('podSecurity', deployment({ user: { ...user, name: 'bob' } })),
      false
    );
    // The gateway's own write (no user) is made as system:apiserver: not proven unexempt.
    assert.equal(byUser.mayAct('podSecurity', deployment({ user: undefined })), true);
  });

  it('the service has not told its configuration, the namespace is not cached, or the cache is not synced: it may act', () => {
    assert.equal(scope([namespace('ns1')], null).mayAct('podSecurity', deployment({ user })), true);
    assert.equal(scope([]).mayAct('podSecurity', deployment({ user })), true);
    const pending = dynamicAdmissionScope(
      allSynced({
        namespaces: new WatchCache({ prefix: '/registry/x/' }),
        podSecurity: () => podSecurity,
      })
    );
    assert.equal(pending.mayAct('podSecurity', deployment({ user })), true);
    const unserved = dynamicAdmissionScope(allSynced({ podSecurity: () => podSecurity }));
    assert.equal(unserved.mayAct('podSecurity', deployment({ user })), true);
  });

  it('a namespace relabelled: the next write sees it', () => {
    const namespaces = synced([namespace('ns1')]);
    const s = dynamicAdmissionScope(allSynced({ namespaces, podSecurity: () => podSecurity }));
    assert.equal(s.mayAct('podSecurity', deployment({ user })), false);
    namespaces.change(
      'MODIFIED',
      namespace('ns1', { 'pod-security.orch.io/audit': 'baseline' }),
      2
    );
    assert.equal(s.mayAct('podSecurity', deployment({ user })), true);
  });
});
