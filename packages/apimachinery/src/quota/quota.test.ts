// Table tests of quantities and the quota evaluators (upstream's resource.Quantity String(),
// quota/v1 resources_test.go, evaluator/core pods_test.go, services_test.go).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  evaluatorFor,
  formatQuantity,
  formatResourceList,
  lessThanOrEqual,
  mustParseQuantity,
  objectCountName,
  parseQuantity,
  persistentVolumeClaimEvaluator,
  podEvaluator,
  prettyPrintResourceList,
  quotaMatches,
  resourceOfQuotaName,
  serviceEvaluator,
  addResourceLists,
  parseResourceList,
} from './index.js';

test('quantities parse and print in canonical form, as Quantity.String()', () => {
  const rows: [string, string][] = [
    ['0', '0'],
    ['1', '1'],
    ['100m', '100m'],
    ['0.1', '100m'],
    ['1.5', '1500m'],
    ['1000', '1k'],
    ['1500', '1500'],
    ['2000m', '2'],
    ['1Gi', '1Gi'],
    ['1024Mi', '1Gi'],
    ['1.5Gi', '1536Mi'],
    ['1025Ki', '1025Ki'],
    ['512', '512'],
    ['1e3', '1e3'],
    ['1M', '1M'],
    ['-5', '-5'],
    ['1n', '1n'],
    ['0.0000000001', '1n'], // finer than nano rounds up
  ];
  for (const [input, want] of rows) {
    assert.equal(formatQuantity(mustParseQuantity(input)), want, input);
  }
  for (const bad of ['', 'abc', '1Kb', '1.2.3', '--1', '1 Gi']) {
    assert.equal(parseQuantity(bad), undefined, bad);
  }
});

test('resource lists add in the first format, compare and print as the plugin prints them', () => {
  const used = parseResourceList({ 'requests.memory': '1Gi', pods: '2' });
  const sum = addResourceLists(used, parseResourceList({ 'requests.memory': '512Mi', pods: '1' }));
  assert.deepEqual(formatResourceList(sum), { pods: '3', 'requests.memory': '1536Mi' });
  const hard = parseResourceList({ 'requests.memory': '1Gi', pods: '3' });
  assert.deepEqual(lessThanOrEqual(sum, hard), { allowed: false, exceeded: ['requests.memory'] });
  assert.equal(prettyPrintResourceList(sum), 'pods=3,requests.memory=1536Mi');
  // A zero takes the format of what is added to it (Quantity.Add).
  const fromZero = addResourceLists(
    parseResourceList({ m: '0' }),
    parseResourceList({ m: '64Mi' })
  );
  assert.deepEqual(formatResourceList(addResourceLists(fromZero, fromZero)), { m: '128Mi' });
});

const pod = (spec: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p', namespace: 'ns' },
  spec,
  ...extra,
});
const container = (name: string, requests?: object, limits?: object) => ({
  name,
  image: 'nginx',
  resources: { ...(requests ? { requests } : {}), ...(limits ? { limits } : {}) },
});

test('pod usage: counts, requests and limits (init containers by max), terminal pods only count/pods', () => {
  const rows: { name: string; pod: Record<string, unknown>; want: Record<string, string> }[] = [
    {
      name: 'best effort',
      pod: pod({ containers: [container('a')] }),
      want: { 'count/pods': '1', pods: '1' },
    },
    {
      name: 'requests and limits summed over containers',
      pod: pod({
        containers: [
          container('a', { cpu: '100m', memory: '64Mi' }, { cpu: '200m', memory: '128Mi' }),
          container('b', { cpu: '300m' }, { cpu: '1' }),
        ],
      }),
      want: {
        'count/pods': '1',
        pods: '1',
        cpu: '400m',
        'requests.cpu': '400m',
        'limits.cpu': '1200m',
        memory: '64Mi',
        'requests.memory': '64Mi',
        'limits.memory': '128Mi',
      },
    },
    {
      name: 'an init container asking more wins',
      pod: pod({
        containers: [container('a', { cpu: '100m' })],
        initContainers: [container('i', { cpu: '1' })],
      }),
      want: { 'count/pods': '1', pods: '1', cpu: '1', 'requests.cpu': '1' },
    },
    {
      name: 'a limit without a request is the request (pod defaulting)',
      pod: pod({ containers: [container('a', undefined, { memory: '1Gi' })] }),
      want: {
        'count/pods': '1',
        pods: '1',
        memory: '1Gi',
        'requests.memory': '1Gi',
        'limits.memory': '1Gi',
      },
    },
    {
      name: 'extended resources and hugepages',
      pod: pod({
        containers: [container('a', { 'example.com/gpu': '2', 'hugepages-2Mi': '4Mi' })],
      }),
      want: {
        'count/pods': '1',
        pods: '1',
        'requests.example.com/gpu': '2',
        'hugepages-2Mi': '4Mi',
        'requests.hugepages-2Mi': '4Mi',
      },
    },
    {
      name: 'a succeeded pod only counts as an object',
      pod: pod({ containers: [container('a', { cpu: '1' })] }, { status: { phase: 'Succeeded' } }),
      want: { 'count/pods': '1' },
    },
  ];
  for (const row of rows) {
    assert.deepEqual(formatResourceList(podEvaluator.usage(row.pod)), row.want, row.name);
  }
});

test('pod constraints: a quota on cpu or memory needs every container to declare it', () => {
  const p = pod({
    containers: [container('a', { cpu: '1' }), container('b')],
    initContainers: [container('init')],
  });
  assert.equal(
    podEvaluator.constraints(['requests.cpu', 'pods', 'limits.memory'], p),
    'must specify limits.memory for: a,b,init; requests.cpu for: b,init'
  );
  assert.equal(podEvaluator.constraints(['pods', 'count/pods'], p), undefined);
});

const quota = (hard: Record<string, string>, spec: Record<string, unknown> = {}) => ({
  metadata: { name: 'q', namespace: 'ns' },
  spec: { hard, ...spec },
  status: { hard, used: {} },
});

test('scopes select pods: Terminating, NotTerminating, BestEffort, NotBestEffort, PriorityClass', () => {
  const bestEffort = pod({ containers: [container('a')] });
  const burstable = pod({ containers: [container('a', { cpu: '1' })], activeDeadlineSeconds: 30 });
  const high = pod({ containers: [container('a')], priorityClassName: 'high' });
  const rows: [string, Record<string, unknown>, Record<string, unknown>, boolean][] = [
    ['no scope matches all', quota({ pods: '1' }), bestEffort, true],
    [
      'BestEffort, best-effort pod',
      quota({ pods: '1' }, { scopes: ['BestEffort'] }),
      bestEffort,
      true,
    ],
    [
      'BestEffort, burstable pod',
      quota({ pods: '1' }, { scopes: ['BestEffort'] }),
      burstable,
      false,
    ],
    [
      'NotBestEffort, burstable',
      quota({ pods: '1' }, { scopes: ['NotBestEffort'] }),
      burstable,
      true,
    ],
    [
      'Terminating, deadline set',
      quota({ pods: '1' }, { scopes: ['Terminating'] }),
      burstable,
      true,
    ],
    [
      'Terminating, no deadline',
      quota({ pods: '1' }, { scopes: ['Terminating'] }),
      bestEffort,
      false,
    ],
    [
      'NotTerminating, no deadline',
      quota({ pods: '1' }, { scopes: ['NotTerminating'] }),
      bestEffort,
      true,
    ],
    [
      'PriorityClass In [high]',
      quota(
        { pods: '1' },
        {
          scopeSelector: {
            matchExpressions: [{ scopeName: 'PriorityClass', operator: 'In', values: ['high'] }],
          },
        }
      ),
      high,
      true,
    ],
    [
      'PriorityClass In [high], no class',
      quota(
        { pods: '1' },
        {
          scopeSelector: {
            matchExpressions: [{ scopeName: 'PriorityClass', operator: 'In', values: ['high'] }],
          },
        }
      ),
      bestEffort,
      false,
    ],
    [
      'PriorityClass NotIn [high], no class',
      quota(
        { pods: '1' },
        {
          scopeSelector: {
            matchExpressions: [{ scopeName: 'PriorityClass', operator: 'NotIn', values: ['high'] }],
          },
        }
      ),
      bestEffort,
      true,
    ],
    [
      'PriorityClass Exists',
      quota(
        { pods: '1' },
        {
          scopeSelector: { matchExpressions: [{ scopeName: 'PriorityClass', operator: 'Exists' }] },
        }
      ),
      high,
      true,
    ],
    ['a quota on services only does not match pods', quota({ services: '1' }), bestEffort, false],
  ];
  for (const [name, q, p, want] of rows) assert.equal(quotaMatches(podEvaluator, q, p), want, name);
});

test('services count node ports and load balancers; claims count storage per class', () => {
  const svc = (type: string, ports: number, extra: Record<string, unknown> = {}) => ({
    spec: { type, ports: Array.from({ length: ports }, (_, i) => ({ port: 80 + i })), ...extra },
  });
  const rows: [string, Record<string, unknown>, Record<string, string>][] = [
    ['ClusterIP', svc('ClusterIP', 2), { 'count/services': '1', services: '1' }],
    [
      'NodePort',
      svc('NodePort', 2),
      { 'count/services': '1', services: '1', 'services.nodeports': '2' },
    ],
    [
      'LoadBalancer',
      svc('LoadBalancer', 1),
      {
        'count/services': '1',
        services: '1',
        'services.loadbalancers': '1',
        'services.nodeports': '1',
      },
    ],
    [
      'LoadBalancer without node ports',
      svc('LoadBalancer', 1, { allocateLoadBalancerNodePorts: false }),
      { 'count/services': '1', services: '1', 'services.loadbalancers': '1' },
    ],
  ];
  for (const [name, s, want] of rows) {
    assert.deepEqual(formatResourceList(serviceEvaluator.usage(s)), want, name);
  }
  const pvc = { spec: { storageClassName: 'fast', resources: { requests: { storage: '5Gi' } } } };
  assert.deepEqual(formatResourceList(persistentVolumeClaimEvaluator.usage(pvc)), {
    'count/persistentvolumeclaims': '1',
    'fast.storageclass.storage.orch.io/persistentvolumeclaims': '1',
    'fast.storageclass.storage.orch.io/requests.storage': '5Gi',
    persistentvolumeclaims: '1',
    'requests.storage': '5Gi',
  });
});

test('object counts: count/<resource>.<group>, legacy core names, creates only', () => {
  const cm = evaluatorFor('', 'configmaps');
  assert.deepEqual(formatResourceList(cm.usage({})), { configmaps: '1', 'count/configmaps': '1' });
  assert.deepEqual(cm.matchingResources(['configmaps', 'pods', 'count/configmaps']), [
    'configmaps',
    'count/configmaps',
  ]);
  const deploy = evaluatorFor('apps', 'deployments');
  assert.deepEqual(formatResourceList(deploy.usage({})), { 'count/deployments.apps': '1' });
  assert.equal(deploy.handles('CREATE'), true);
  assert.equal(deploy.handles('UPDATE'), false);
  assert.equal(objectCountName('', 'secrets'), 'count/secrets');
  assert.deepEqual(resourceOfQuotaName('count/deployments.apps'), {
    group: 'apps',
    resource: 'deployments',
  });
  assert.equal(resourceOfQuotaName('requests.cpu')?.resource, 'pods');
  assert.equal(resourceOfQuotaName('services.nodeports')?.resource, 'services');
  assert.equal(resourceOfQuotaName('configmaps')?.resource, 'configmaps');
  assert.equal(resourceOfQuotaName('requests.storage')?.resource, 'persistentvolumeclaims');
});
