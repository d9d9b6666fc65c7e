// Classification against the mandatory and suggested configuration, one named row each.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { requestInfoOf } from '../request/request-info.js';
import { ApfController } from './apf-controller.js';
import { suggestedFlowSchemas, suggestedPriorityLevels } from './bootstrap.js';
import { hashFlowID } from './rule.js';

const user = (name: string, ...groups: string[]) => ({ name, uid: '', groups, extra: {} });
const digest = (method: string, path: string, u: ReturnType<typeof user>) => ({
  info: requestInfoOf(method, new URL(path, 'https://x')),
  user: u,
});

test('FlowSchema classification: precedence, subjects, rules, distinguisher', () => {
  const c = new ApfController({ serverConcurrencyLimit: 600 });
  c.setConfig(suggestedFlowSchemas, suggestedPriorityLevels);
  const rows: [string, ReturnType<typeof digest>, string, string][] = [
    [
      'system:masters are exempt',
      digest('GET', '/api/v1/pods', user('admin', 'system:masters', 'system:authenticated')),
      'exempt',
      '',
    ],
    [
      'probes are exempt for anyone',
      digest('GET', '/readyz', user('system:anonymous', 'system:unauthenticated')),
      'probes',
      '',
    ],
    [
      'a probe path below /readyz matches as a prefix',
      digest('GET', '/readyz/etcd', user('u', 'system:authenticated')),
      'probes',
      '',
    ],
    [
      "nodes' leases are node-high",
      digest(
        'PUT',
        '/apis/coordination.orch.io/v1/namespaces/orch-node-lease/leases/n1',
        user('system:node:n1', 'system:nodes', 'system:authenticated')
      ),
      'system-node-high',
      'system:node:n1',
    ],
    [
      "nodes' other requests are system",
      digest('GET', '/api/v1/pods', user('system:node:n1', 'system:nodes')),
      'system-nodes',
      'system:node:n1',
    ],
    [
      "the controller manager's leases are leader election",
      digest(
        'PUT',
        '/apis/coordination.orch.io/v1/namespaces/orch-system/leases/cm',
        user('system:orch-controller-manager', 'system:authenticated')
      ),
      'system-leader-election',
      'system:orch-controller-manager',
    ],
    [
      'the controller manager by namespace',
      digest(
        'GET',
        '/api/v1/namespaces/ns1/pods',
        user('system:orch-controller-manager', 'system:authenticated')
      ),
      'orch-controller-manager',
      'ns1',
    ],
    [
      'an orch-system service account (wildcard name)',
      digest(
        'GET',
        '/api/v1/namespaces/a/pods',
        user('system:serviceaccount:orch-system:x', 'system:serviceaccounts')
      ),
      'orch-system-service-accounts',
      'a',
    ],
    [
      'not a prefix of another namespace',
      digest(
        'GET',
        '/api/v1/pods',
        user('system:serviceaccount:orch-systemx:x', 'system:serviceaccounts')
      ),
      'service-accounts',
      'system:serviceaccount:orch-systemx:x',
    ],
    [
      'everyone else is global-default by user',
      digest('GET', '/api/v1/namespaces/a/pods', user('alice', 'system:authenticated')),
      'global-default',
      'alice',
    ],
  ];
  for (const [name, d, schema, distinguisher] of rows) {
    const got = c.classify(d);
    assert.equal(got.flowSchema.metadata?.name, schema, name);
    assert.equal(got.distinguisher, distinguisher, name);
  }
});

test('without the suggested objects the mandatory catch-all takes everyone, and a dangling schema never matches', () => {
  const c = new ApfController({ serverConcurrencyLimit: 600 });
  const dangling = {
    ...suggestedFlowSchemas.at(-1)!,
    metadata: { name: 'dangling' },
    spec: {
      ...suggestedFlowSchemas.at(-1)!.spec,
      matchingPrecedence: 50,
      priorityLevelConfiguration: { name: 'nope' },
    },
  };
  c.setConfig([dangling], []);
  assert.deepEqual([...c.dangling], ['dangling']);
  const got = c.classify(digest('GET', '/api/v1/pods', user('alice', 'system:authenticated')));
  assert.equal(got.flowSchema.metadata?.name, 'catch-all');
  assert.equal(got.level.config.spec.limited?.limitResponse.type, 'Reject');
});

test('hashFlowID is stable and tells flows apart', () => {
  assert.equal(hashFlowID('a', 'b'), hashFlowID('a', 'b'));
  assert.notEqual(hashFlowID('a', 'b'), hashFlowID('ab', ''));
});

test('nominal seats from the shares of the suggested and mandatory levels (600 server seats)', () => {
  const c = new ApfController({ serverConcurrencyLimit: 600 });
  c.setConfig(suggestedFlowSchemas, suggestedPriorityLevels);
  // ΣNCS = 5 + 0 + 30 + 40 + 10 + 40 + 100 + 20 = 245; NominalCL = ceil(600 × NCS / 245).
  const nominal = Object.fromEntries([...c.levels].map(([n, l]) => [n, l.limits.nominalCL]));
  assert.deepEqual(nominal, {
    system: 74,
    'node-high': 98,
    'leader-election': 25,
    'workload-high': 98,
    'workload-low': 245,
    'global-default': 49,
    'catch-all': 13,
    exempt: 0,
  });
  assert.equal(c.levels.get('workload-low')!.limits.minCL, 245 - Math.round(245 * 0.9));
});
