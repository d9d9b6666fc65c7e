import assert from 'node:assert/strict';
import { test } from 'node:test';

import { StatusError } from '@orch/apimachinery/errors';
import type { ApiObject } from '@orch/apimachinery/meta';

import type { AdmissionRequest } from '../interfaces.js';

import { compileSelector } from './compiled-selector.js';
import type { MatchCriteria } from './matcher.js';
import { Matcher } from './matcher.js';
import type { RuleWithOperations } from './rule-matcher.js';
import { ruleMatches } from './rule-matcher.js';
import { arrayLister } from './test-lister.js';

function pod(labels?: Record<string, string>, name = 'p'): ApiObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: labels ? { name, namespace: 'team-a', labels } : { name, namespace: 'team-a' },
  };
}

function req(over: Partial<AdmissionRequest> = {}): AdmissionRequest {
  return {
    operation: 'CREATE',
    kind: { group: '', version: 'v1', kind: 'Pod' },
    resource: { group: '', version: 'v1', resource: 'pods' },
    subResource: '',
    namespace: 'team-a',
    name: 'p',
    userInfo: { name: 'alice', uid: '', groups: [], extra: {} },
    object: pod({ app: 'web' }),
    oldObject: undefined,
    options: { apiVersion: 'meta.orch.io/v1', kind: 'CreateOptions' },
    dryRun: false,
    ...over,
  };
}

const namespaces = arrayLister([
  { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a', labels: { env: 'prod' } } },
  { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-b', labels: { env: 'dev' } } },
  { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'bare' } },
]);
const matcher = new Matcher(namespaces);

const allPods: RuleWithOperations = {
  operations: ['*'],
  apiGroups: [''],
  apiVersions: ['v1'],
  resources: ['pods'],
};

function criteria(over: Partial<MatchCriteria> = {}): MatchCriteria {
  return {
    namespaceSelector: compileSelector({}),
    objectSelector: compileSelector({}),
    rules: [allPods],
    ...over,
  };
}

const podStatus = {
  resource: { group: '', version: 'v1', resource: 'pods' },
  subResource: 'status',
};
const podExec = { resource: { group: '', version: 'v1', resource: 'pods' }, subResource: 'exec' };
const deployments = {
  resource: { group: 'apps', version: 'v1', resource: 'deployments' },
  subResource: '',
};
const depStatus = { ...deployments, subResource: 'status' };
const nodes = {
  resource: { group: '', version: 'v1', resource: 'nodes' },
  subResource: '',
  namespace: '',
  name: 'n1',
};
const nsObject = {
  resource: { group: '', version: 'v1', resource: 'namespaces' },
  subResource: '',
  namespace: 'team-b',
  name: 'team-b',
};

test('webhook configuration table, row rules[]: operations, apiGroups, apiVersions, resources, scope', () => {
  const rule = (r: Partial<RuleWithOperations>): RuleWithOperations => ({ ...allPods, ...r });
  const rows: [string, RuleWithOperations, Partial<AdmissionRequest>, boolean][] = [
    ['operations: the named operation', rule({ operations: ['CREATE'] }), {}, true],
    ['operations: another operation', rule({ operations: ['UPDATE'] }), {}, false],
    ['operations: DELETE', rule({ operations: ['DELETE'] }), { operation: 'DELETE' }, true],
    ['operations: CONNECT', rule({ operations: ['CONNECT'] }), { operation: 'CONNECT' }, true],
    [
      'operations: * is every operation',
      rule({ operations: ['*'] }),
      { operation: 'UPDATE' },
      true,
    ],
    ['operations: empty matches nothing', rule({ operations: [] }), {}, false],
    ["apiGroups: '' is the core group", rule({ apiGroups: [''] }), {}, true],
    ["apiGroups: '' is not apps", rule({ apiGroups: [''], resources: ['*'] }), deployments, false],
    [
      'apiGroups: a named group',
      rule({ apiGroups: ['apps'], resources: ['*'] }),
      deployments,
      true,
    ],
    [
      'apiGroups: * is every group',
      rule({ apiGroups: ['*'], resources: ['*'] }),
      deployments,
      true,
    ],
    ['apiVersions: another version', rule({ apiVersions: ['v2'] }), {}, false],
    ['apiVersions: * is every version', rule({ apiVersions: ['*'] }), {}, true],
    ['resources: the resource by name', rule({ resources: ['pods'] }), {}, true],
    ['resources: another resource', rule({ resources: ['services'] }), {}, false],
    [
      'resources: the resource alone, not its subresource',
      rule({ resources: ['pods'] }),
      podStatus,
      false,
    ],
    ['resources: * is every resource', rule({ resources: ['*'] }), {}, true],
    ['resources: * excludes subresources', rule({ resources: ['*'] }), podStatus, false],
    ['resources: */* includes resources', rule({ resources: ['*/*'] }), {}, true],
    ['resources: */* includes subresources', rule({ resources: ['*/*'] }), podExec, true],
    ['resources: pods/* every subresource of pods', rule({ resources: ['pods/*'] }), podExec, true],
    // Upstream's rules.Matcher: a `*` subresource also matches the empty one.
    [
      'resources: pods/* also matches pods itself, as upstream',
      rule({ resources: ['pods/*'] }),
      {},
      true,
    ],
    [
      'resources: */status every status subresource',
      rule({ apiGroups: ['*'], resources: ['*/status'] }),
      depStatus,
      true,
    ],
    [
      'resources: */status not another subresource',
      rule({ resources: ['*/status'] }),
      podExec,
      false,
    ],
    [
      'resources: pods/status one subresource',
      rule({ resources: ['pods/status'] }),
      podStatus,
      true,
    ],
    ['scope: default * matches namespaced', rule({}), {}, true],
    ['scope: * matches cluster-scoped', rule({ resources: ['*'], scope: '*' }), nodes, true],
    ['scope: Namespaced matches namespaced', rule({ scope: 'Namespaced' }), {}, true],
    [
      'scope: Namespaced excludes cluster-scoped',
      rule({ resources: ['*'], scope: 'Namespaced' }),
      nodes,
      false,
    ],
    [
      'scope: Namespaced excludes Namespace objects',
      rule({ resources: ['*'], scope: 'Namespaced' }),
      nsObject,
      false,
    ],
    [
      'scope: Cluster matches cluster-scoped',
      rule({ resources: ['*'], scope: 'Cluster' }),
      nodes,
      true,
    ],
    [
      'scope: Cluster matches Namespace objects',
      rule({ resources: ['*'], scope: 'Cluster' }),
      nsObject,
      true,
    ],
    ['scope: Cluster excludes namespaced', rule({ scope: 'Cluster' }), {}, false],
  ];
  for (const [name, r, over, want] of rows) {
    assert.equal(ruleMatches(r, req(over)), want, name);
  }
});

test('webhook configuration table, row namespaceSelector: namespaced resources, Namespace objects, other cluster-scoped', () => {
  const prod = compileSelector({ matchLabels: { env: 'prod' } });
  const rows: [string, Partial<MatchCriteria>, Partial<AdmissionRequest>, boolean][] = [
    ['the namespace labels match', { namespaceSelector: prod }, {}, true],
    [
      'the namespace labels do not match',
      { namespaceSelector: prod },
      { namespace: 'team-b' },
      false,
    ],
    ['a namespace without labels', { namespaceSelector: prod }, { namespace: 'bare' }, false],
    [
      'NotIn matches a namespace without labels',
      {
        namespaceSelector: compileSelector({
          matchExpressions: [{ key: 'env', operator: 'NotIn', values: ['prod'] }],
        }),
      },
      { namespace: 'bare' },
      true,
    ],
    [
      'a Namespace object is checked against its own labels (create)',
      { namespaceSelector: prod, rules: [{ ...allPods, resources: ['namespaces'] }] },
      {
        ...nsObject,
        object: {
          apiVersion: 'v1',
          kind: 'Namespace',
          metadata: { name: 'team-b', labels: { env: 'prod' } },
        },
      },
      true,
    ],
    [
      'a Namespace object update with labels that do not match',
      { namespaceSelector: prod, rules: [{ ...allPods, resources: ['namespaces'] }] },
      {
        ...nsObject,
        operation: 'UPDATE',
        object: {
          apiVersion: 'v1',
          kind: 'Namespace',
          metadata: { name: 'team-a', labels: { env: 'dev' } },
        },
        namespace: 'team-a',
        name: 'team-a',
      },
      false,
    ],
    [
      'a Namespace delete is checked against the stored namespace',
      { namespaceSelector: prod, rules: [{ ...allPods, resources: ['namespaces'] }] },
      { ...nsObject, operation: 'DELETE', namespace: 'team-a', name: 'team-a', object: undefined },
      true,
    ],
    [
      'other cluster-scoped resources always match',
      { namespaceSelector: prod, rules: [{ ...allPods, resources: ['nodes'] }] },
      nodes,
      true,
    ],
  ];
  for (const [name, c, over, want] of rows) {
    assert.equal(matcher.matches(criteria(c), req(over)), want, name);
  }
});

test('namespaceSelector: an unknown namespace is a 404 only when the rules match', () => {
  const prod = compileSelector({ matchLabels: { env: 'prod' } });
  assert.throws(
    () => matcher.matches(criteria({ namespaceSelector: prod }), req({ namespace: 'gone' })),
    (err: unknown) =>
      err instanceof StatusError &&
      err.code === 404 &&
      /namespaces "gone" not found/.test(err.message)
  );
  const other = criteria({
    namespaceSelector: prod,
    rules: [{ ...allPods, resources: ['services'] }],
  });
  assert.equal(matcher.matches(other, req({ namespace: 'gone' })), false);
  // An empty selector never looks the namespace up.
  assert.equal(matcher.matches(criteria(), req({ namespace: 'gone' })), true);
});

test('webhook configuration table, row objectSelector: object or oldObject; null and label-less objects never match', () => {
  const web = compileSelector({ matchLabels: { app: 'web' } });
  const noFoo = compileSelector({ matchExpressions: [{ key: 'foo', operator: 'DoesNotExist' }] });
  const rows: [string, Partial<MatchCriteria>, Partial<AdmissionRequest>, boolean][] = [
    ['the object matches', { objectSelector: web }, {}, true],
    ['the object does not match', { objectSelector: web }, { object: pod({ app: 'db' }) }, false],
    [
      'the old object matches',
      { objectSelector: web },
      { operation: 'UPDATE', object: pod({ app: 'db' }), oldObject: pod({ app: 'web' }) },
      true,
    ],
    [
      'a DELETE is matched by the old object',
      { objectSelector: web },
      { operation: 'DELETE', object: undefined, oldObject: pod({ app: 'web' }) },
      true,
    ],
    [
      'null object and old object never match',
      { objectSelector: noFoo },
      { operation: 'DELETE', object: undefined, oldObject: undefined },
      false,
    ],
    [
      'a label-less object never matches a non-empty selector',
      { objectSelector: noFoo },
      { object: pod() },
      false,
    ],
    [
      'an object with empty labels never matches a non-empty selector',
      { objectSelector: noFoo },
      { object: pod({}) },
      false,
    ],
    ['a labelled object matches DoesNotExist', { objectSelector: noFoo }, {}, true],
    ['an empty selector matches a label-less object', {}, { object: pod() }, true],
    ['an empty selector matches a null object', {}, { object: undefined }, true],
    [
      'a missing selector (no defaults) matches everything',
      { objectSelector: compileSelector(undefined) },
      { object: pod() },
      true,
    ],
  ];
  for (const [name, c, over, want] of rows) {
    assert.equal(matcher.matches(criteria(c), req(over)), want, name);
  }
});

test('a selector that does not parse fails with 500 only for requests the rules match', () => {
  const bad = compileSelector({ matchLabels: { 'bad key!': 'x' } });
  assert.ok(bad.error);
  assert.throws(
    () => matcher.matches(criteria({ objectSelector: bad }), req()),
    (err: unknown) => err instanceof StatusError && err.code === 500
  );
  assert.throws(
    () => matcher.matches(criteria({ namespaceSelector: bad }), req()),
    (err: unknown) => err instanceof StatusError && err.code === 500
  );
  const other = criteria({ objectSelector: bad, rules: [{ ...allPods, resources: ['services'] }] });
  assert.equal(matcher.matches(other, req()), false);
});

test('webhook configuration table, row matchPolicy: Exact and Equivalent match the served version alike', () => {
  for (const matchPolicy of ['Exact', 'Equivalent', undefined]) {
    assert.equal(matcher.matches(criteria({ matchPolicy }), req()), true, String(matchPolicy));
    const v2 = criteria({ matchPolicy, rules: [{ ...allPods, apiVersions: ['v2'] }] });
    assert.equal(matcher.matches(v2, req()), false, String(matchPolicy));
  }
});

test('rules lists: empty rules, resourceNames, excludeResourceRules', () => {
  assert.equal(
    matcher.matches(criteria({ rules: [] }), req()),
    false,
    'webhook: no rules, no match'
  );
  assert.equal(
    matcher.matches(criteria({ rules: [], emptyRulesMatchAll: true }), req()),
    true,
    'policy: empty resourceRules match all'
  );
  assert.equal(
    matcher.matches(criteria({ rules: [{ ...allPods, resourceNames: ['p'] }] }), req()),
    true,
    'named'
  );
  assert.equal(
    matcher.matches(criteria({ rules: [{ ...allPods, resourceNames: ['q'] }] }), req()),
    false,
    'other name'
  );
  assert.equal(
    matcher.matches(criteria({ excludeRules: [{ ...allPods, operations: ['CREATE'] }] }), req()),
    false,
    'excluded'
  );
  assert.equal(
    matcher.matches(criteria({ excludeRules: [{ ...allPods, resourceNames: ['q'] }] }), req()),
    true,
    'exclusion for another name'
  );
  assert.equal(
    matcher.matches(criteria({ rules: [{ ...allPods, operations: ['UPDATE'] }, allPods] }), req()),
    true,
    'any rule'
  );
});
