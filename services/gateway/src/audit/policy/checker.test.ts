// The checker over upstream's checker_test.go table: the same requests, rules and expectations.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { newPolicyRuleEvaluator, unionStages } from './checker.js';
import { loadPolicyFile, validatePolicy } from './load.js';
import type { AuditAttributes, Level, Policy, PolicyRule, Stage } from './types.js';

const tim = { name: 'tim@k8s.io', groups: ['humans', 'developers'] };
const attrs: Record<string, AuditAttributes> = {
  namespaced: {
    user: tim,
    verb: 'get',
    namespace: 'default',
    apiGroup: '',
    resource: 'pods',
    name: 'busybox',
    isResourceRequest: true,
    path: '/api/v1/namespaces/default/pods/busybox',
  },
  cluster: {
    user: tim,
    verb: 'get',
    apiGroup: 'rbac.authorization.k8s.io',
    resource: 'clusterroles',
    name: 'edit',
    isResourceRequest: true,
    path: '/apis/rbac.authorization.k8s.io/v1beta1/clusterroles/edit',
  },
  nonResource: { user: tim, verb: 'get', isResourceRequest: false, path: '/logs/kubelet.log' },
  subresource: {
    user: tim,
    verb: 'get',
    namespace: 'default',
    apiGroup: '',
    resource: 'pods',
    subresource: 'log',
    name: 'busybox',
    isResourceRequest: true,
    path: '/api/v1/namespaces/default/pods/busybox',
  },
  Unauthorized: {
    verb: 'get',
    namespace: 'default',
    apiGroup: '',
    resource: 'pods',
    name: 'busybox',
    isResourceRequest: true,
    path: '/api/v1/namespaces/default/pods/busybox',
  },
};

const rules: Record<string, PolicyRule> = {
  default: { level: 'Metadata' },
  create: { level: 'Request', verbs: ['create'] },
  tims: { level: 'Metadata', users: ['tim@k8s.io'] },
  humans: { level: 'Metadata', userGroups: ['humans'] },
  serviceAccounts: { level: 'Request', userGroups: ['system:serviceaccounts'] },
  getPods: { level: 'RequestResponse', verbs: ['get'], resources: [{ resources: ['pods'] }] },
  getPodLogs: { level: 'Request', verbs: ['get'], resources: [{ resources: ['pods/log'] }] },
  getPodWildcardMatching: { level: 'Request', verbs: ['get'], resources: [{ resources: ['*'] }] },
  getPodResourceWildcardMatching: {
    level: 'Request',
    verbs: ['get'],
    resources: [{ resources: ['*/log'] }],
  },
  getPodSubResourceWildcardMatching: {
    level: 'Request',
    verbs: ['get'],
    resources: [{ resources: ['pods/*'] }],
  },
  getClusterRoles: {
    level: 'RequestResponse',
    verbs: ['get'],
    resources: [{ group: 'rbac.authorization.k8s.io', resources: ['clusterroles'] }],
    namespaces: [''],
  },
  getLogs: { level: 'RequestResponse', verbs: ['get'], nonResourceURLs: ['/logs*'] },
  getMetrics: { level: 'Request', verbs: ['get'], nonResourceURLs: ['/metrics'] },
  clusterRoleEdit: {
    level: 'Request',
    resources: [
      { group: 'rbac.authorization.k8s.io', resources: ['clusterroles'], resourceNames: ['edit'] },
    ],
  },
  'omit RequestReceived': { level: 'Request', omitStages: ['RequestReceived'] },
  'only audit panic': {
    level: 'Request',
    omitStages: ['RequestReceived', 'ResponseStarted', 'ResponseComplete'],
  },
};

function check(
  req: string,
  level: Level,
  policyStages: Stage[] | undefined,
  omit: Stage[] | undefined,
  ...names: string[]
): void {
  const policy: Policy = {
    apiVersion: 'audit.orch.io/v1',
    kind: 'Policy',
    rules: names.map((n) => rules[n]!),
    ...(policyStages ? { omitStages: policyStages } : {}),
  };
  const got = newPolicyRuleEvaluator(policy)(attrs[req]!);
  const what = `request ${req}, rules ${names.join(',')}`;
  assert.equal(got.level, level, what);
  assert.deepEqual(new Set(got.omitStages), new Set(omit ?? []), what);
}

function checkLevels(s: Stage[] | undefined): void {
  check('namespaced', 'Metadata', s, s, 'default');
  check('namespaced', 'None', s, s, 'create');
  check('namespaced', 'Metadata', s, s, 'tims');
  check('namespaced', 'Metadata', s, s, 'humans');
  check('namespaced', 'None', s, s, 'serviceAccounts');
  check('namespaced', 'RequestResponse', s, s, 'getPods');
  check('namespaced', 'None', s, s, 'getClusterRoles');
  check('namespaced', 'None', s, s, 'getLogs');
  check('namespaced', 'None', s, s, 'getMetrics');
  check('namespaced', 'Metadata', s, s, 'getMetrics', 'serviceAccounts', 'default');
  check('namespaced', 'RequestResponse', s, s, 'getMetrics', 'getPods', 'default');
  check('namespaced', 'RequestResponse', s, s, 'getPodLogs', 'getPods');

  check('cluster', 'Metadata', s, s, 'default');
  check('cluster', 'None', s, s, 'create');
  check('cluster', 'Metadata', s, s, 'tims');
  check('cluster', 'Metadata', s, s, 'humans');
  check('cluster', 'None', s, s, 'serviceAccounts');
  check('cluster', 'None', s, s, 'getPods');
  check('cluster', 'RequestResponse', s, s, 'getClusterRoles');
  check('cluster', 'Request', s, s, 'clusterRoleEdit', 'getClusterRoles');
  check('cluster', 'None', s, s, 'getLogs');
  check('cluster', 'None', s, s, 'getMetrics');
  check('cluster', 'Metadata', s, s, 'getMetrics', 'serviceAccounts', 'default');
  check('cluster', 'RequestResponse', s, s, 'getMetrics', 'getClusterRoles', 'default');
  check('cluster', 'None', s, s, 'getPodLogs', 'getPods');

  check('nonResource', 'Metadata', s, s, 'default');
  check('nonResource', 'None', s, s, 'create');
  check('nonResource', 'Metadata', s, s, 'tims');
  check('nonResource', 'Metadata', s, s, 'humans');
  check('nonResource', 'None', s, s, 'serviceAccounts');
  check('nonResource', 'None', s, s, 'getPods');
  check('nonResource', 'None', s, s, 'getClusterRoles');
  check('nonResource', 'RequestResponse', s, s, 'getLogs');
  check('nonResource', 'None', s, s, 'getMetrics');
  check('nonResource', 'Metadata', s, s, 'getMetrics', 'serviceAccounts', 'default');
  check('nonResource', 'RequestResponse', s, s, 'getLogs', 'getClusterRoles', 'default');
  check('nonResource', 'None', s, s, 'getPodLogs', 'getPods');

  check('subresource', 'Request', s, s, 'getPodLogs', 'getPods');
  check('subresource', 'Request', s, s, 'getPodWildcardMatching');
  check('subresource', 'Request', s, s, 'getPodResourceWildcardMatching');
  check('subresource', 'Request', s, s, 'getPodSubResourceWildcardMatching');

  check('Unauthorized', 'None', s, s, 'tims');
  check('Unauthorized', 'Metadata', s, s, 'tims', 'default');
  check('Unauthorized', 'None', s, s, 'humans');
  check('Unauthorized', 'Metadata', s, s, 'humans', 'default');
}

const RR: Stage = 'RequestReceived';
const RS: Stage = 'ResponseStarted';
const RC: Stage = 'ResponseComplete';

describe('audit policy checker', () => {
  test('levels and per-rule omitStages', () => {
    checkLevels(undefined);
    for (const req of ['namespaced', 'cluster', 'nonResource']) {
      check(req, 'Request', undefined, [RR], 'omit RequestReceived', 'getPods', 'default');
      check(req, 'Request', undefined, [RR, RS, RC], 'only audit panic', 'getPods', 'default');
    }
  });

  test('policy-wide omitStages join each rule', () => {
    const p: Stage[] = [RR, RS];
    checkLevels(p);
    for (const req of ['namespaced', 'cluster']) {
      check(req, 'Request', p, [RR, RS], 'omit RequestReceived', 'getPods', 'default');
      check(req, 'Request', p, [RR, RS, RC], 'only audit panic', 'getPods', 'default');
    }
    check('nonResource', 'Metadata', p, [RR, RS], 'default', 'omit RequestReceived', 'getPods');
    check('nonResource', 'Request', p, [RR, RS, RC], 'only audit panic', 'getPods', 'default');
  });

  test('unionStages', () => {
    assert.deepEqual(unionStages([], []), []);
    assert.deepEqual(unionStages([RR], []), [RR]);
    assert.deepEqual(unionStages([RR], [RR]), [RR]);
    assert.deepEqual(unionStages([RR], [RS]), [RR, RS]);
    assert.deepEqual(unionStages([RR, RR], [RR, RR]), [RR]);
    assert.deepEqual(unionStages([RR, RS], ['Panic', RR]), [RR, RS, 'Panic']);
    assert.deepEqual(unionStages(undefined, [RR]), [RR]);
  });

  test('omitManagedFields: the rule overrides the policy', () => {
    const at: AuditAttributes = { verb: 'get', isResourceRequest: false, path: '/' };
    const omit = (global: boolean, rule?: boolean): boolean =>
      newPolicyRuleEvaluator({
        apiVersion: 'audit.orch.io/v1',
        kind: 'Policy',
        omitManagedFields: global,
        rules: [
          {
            level: 'RequestResponse',
            verbs: ['get'],
            ...(rule === undefined ? {} : { omitManagedFields: rule }),
          },
        ],
      })(at).omitManagedFields;
    assert.equal(omit(false), false);
    assert.equal(omit(true), true);
    assert.equal(omit(true, false), false);
    assert.equal(omit(false, true), true);
  });
});

describe('audit policy file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'audit-policy-'));
  const write = (name: string, text: string): string => {
    const p = join(dir, name);
    writeFileSync(p, text);
    return p;
  };

  test('YAML and JSON load alike', () => {
    const yaml = write(
      'p.yaml',
      [
        'apiVersion: audit.orch.io/v1',
        'kind: Policy',
        'omitStages: [RequestReceived]',
        'rules:',
        '- level: RequestResponse',
        '  resources: [{group: "", resources: ["pods/log", "*/status"]}]',
        '- level: None',
        '  nonResourceURLs: ["/healthz*"]',
        '- level: Metadata',
      ].join('\n')
    );
    const p = loadPolicyFile(yaml);
    assert.equal(p.rules.length, 3);
    assert.deepEqual(loadPolicyFile(write('p.json', JSON.stringify(p))), p);
  });

  test('every error is named with its field', () => {
    const errs = validatePolicy({
      apiVersion: 'audit.k8s.io/v1',
      kind: 'Policy',
      omitStages: ['Sometime'],
      rules: [
        { level: 'Everything' },
        {},
        { level: 'None', nonResourceURLs: ['healthz', '/a*b'], namespaces: ['x'] },
        {
          level: 'None',
          resources: [{ group: 'Bad_Group', resources: ['*'], resourceNames: ['a'] }],
        },
        { level: 'None', verb: ['get'] },
      ],
    });
    const expected = [
      'apiVersion: Unsupported value: "audit.k8s.io/v1"',
      'omitStages[0]: Unsupported value: "Sometime"',
      'rules[0].level: Unsupported value: "Everything"',
      'rules[1].level: Required value',
      'rules[2].nonResourceURLs[0]: Invalid value: "healthz": non-resource URL rules must begin with a \'/\'',
      'rules[2].nonResourceURLs[1]: Invalid value: "/a*b": non-resource URL wildcards \'*\' must be the final',
      'rules[2].nonResourceURLs: Invalid value: rules cannot apply to both',
      'rules[3].resources[0].group: Invalid value: "Bad_Group"',
      'rules[3].resources[0].resources[0]: Invalid value: "*": using resourceNames with wildcard',
      'rules[4].verb: unknown field',
    ];
    for (const e of expected)
      assert.ok(
        errs.some((x) => x.startsWith(e)),
        `missing ${e} in ${errs.join('\n')}`
      );
    assert.equal(errs.length, expected.length, errs.join('\n'));
  });

  test('a policy without rules, or unreadable, fails to load', () => {
    assert.throws(
      () => loadPolicyFile(write('empty.yaml', 'apiVersion: audit.orch.io/v1\nkind: Policy\n')),
      /0 rules/
    );
    assert.throws(() => loadPolicyFile(join(dir, 'absent.yaml')), /failed to read audit policy/);
    assert.throws(() => loadPolicyFile(write('bad.yaml', 'rules: [')), /failed to decode/);
  });
});
