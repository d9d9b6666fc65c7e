// Table tests of ResourceQuota and LimitRange validation and defaulting (upstream's
// validation_test.go TestValidateResourceQuota, TestValidateLimitRange cases and messages).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fieldErrorMessage } from '@orch/apimachinery/errors';
import type { ApiObject } from '@orch/apimachinery/meta';
import { defaultLimitRange } from '../limitranges/strategy.js';
import { validateLimitRange } from '../limitranges/validation.js';
import { resourceQuotaStrategy } from './strategy.js';
import { validateResourceQuota, validateResourceQuotaUpdate } from './validation.js';

const rq = (spec: Record<string, unknown>, status?: Record<string, unknown>): ApiObject => ({
  apiVersion: 'v1',
  kind: 'ResourceQuota',
  metadata: { name: 'q', namespace: 'ns' },
  spec,
  ...(status ? { status } : {}),
});
const messages = (errs: ReturnType<typeof validateResourceQuota>): string[] =>
  errs.map((e) => fieldErrorMessage(e));

test('ResourceQuota validation: valid specs pass', () => {
  const rows: [string, Record<string, unknown>][] = [
    [
      'compute and counts',
      {
        hard: { cpu: '100', 'requests.memory': '10Gi', pods: '10', 'count/deployments.apps': '3' },
      },
    ],
    [
      'scopes on pod resources',
      { hard: { pods: '5', 'requests.cpu': '1' }, scopes: ['NotTerminating', 'NotBestEffort'] },
    ],
    ['BestEffort on pods', { hard: { pods: '5' }, scopes: ['BestEffort'] }],
    ['extended resource', { hard: { 'requests.example.com/gpu': '4' } }],
    [
      'scope selector',
      {
        hard: { pods: '5' },
        scopeSelector: {
          matchExpressions: [{ scopeName: 'PriorityClass', operator: 'In', values: ['high'] }],
        },
      },
    ],
  ];
  for (const [name, spec] of rows)
    assert.deepEqual(messages(validateResourceQuota(rq(spec))), [], name);
});

test('ResourceQuota validation: upstream messages name the field', () => {
  const rows: [string, Record<string, unknown>, string[]][] = [
    [
      'negative',
      { hard: { pods: '-1' } },
      ['spec.hard[pods]: Invalid value: "-1": must be greater than or equal to 0'],
    ],
    [
      'fractional count',
      { hard: { pods: '1.5' } },
      ['spec.hard[pods]: Invalid value: "1.5": must be an integer'],
    ],
    [
      'not a quota resource',
      { hard: { storage: '1Gi' } },
      ['spec.hard[storage]: Invalid value: "storage": must be a standard resource for quota'],
    ],
    [
      'not a resource at all',
      { hard: { foo: '1' } },
      [
        'spec.hard[foo]: Invalid value: "foo": must be a standard resource type or fully qualified',
        'spec.hard[foo]: Invalid value: "foo": must be a standard resource for quota',
      ],
    ],
    [
      'unsupported scope',
      { hard: { pods: '1' }, scopes: ['Foo'] },
      ['spec.scopes: Invalid value: ["Foo"]: unsupported scope'],
    ],
    [
      'BestEffort on cpu',
      { hard: { cpu: '1' }, scopes: ['BestEffort'] },
      ['spec.scopes: Invalid value: ["BestEffort"]: unsupported scope applied to resource'],
    ],
    [
      'conflicting scopes',
      { hard: { pods: '1' }, scopes: ['Terminating', 'NotTerminating'] },
      ['spec.scopes: Invalid value: ["Terminating","NotTerminating"]: conflicting scopes'],
    ],
    [
      'selector: In without values',
      {
        hard: { pods: '1' },
        scopeSelector: { matchExpressions: [{ scopeName: 'PriorityClass', operator: 'In' }] },
      },
      [
        "spec.scopeSelector.matchExpressions.values: Required value: must be at least one value when `operator` is 'In' or 'NotIn' for scope selector",
      ],
    ],
    [
      'selector: BestEffort with In',
      {
        hard: { pods: '1' },
        scopeSelector: {
          matchExpressions: [{ scopeName: 'BestEffort', operator: 'In', values: ['x'] }],
        },
      },
      [
        'spec.scopeSelector.matchExpressions.operator: Invalid value: "In": must be \'Exist\' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity',
      ],
    ],
    [
      'selector: Exists with values',
      {
        hard: { pods: '1' },
        scopeSelector: {
          matchExpressions: [{ scopeName: 'PriorityClass', operator: 'Exists', values: ['x'] }],
        },
      },
      [
        "spec.scopeSelector.matchExpressions.values: Invalid value: [\"x\"]: must be no value when `operator` is 'Exist' or 'DoesNotExist' for scope selector",
      ],
    ],
    [
      'selector: bad operator',
      {
        hard: { pods: '1' },
        scopeSelector: {
          matchExpressions: [{ scopeName: 'PriorityClass', operator: 'Is', values: ['x'] }],
        },
      },
      [
        'spec.scopeSelector.matchExpressions.operator: Invalid value: "Is": not a valid selector operator',
      ],
    ],
  ];
  for (const [name, spec, want] of rows)
    assert.deepEqual(messages(validateResourceQuota(rq(spec))), want, name);
});

test('ResourceQuota: status is validated too, scopes are immutable, a create empties status', () => {
  assert.deepEqual(
    messages(
      validateResourceQuota(
        rq({ hard: { pods: '1' } }, { hard: { pods: '1' }, used: { pods: '-1' } })
      )
    ),
    ['status.used[pods]: Invalid value: "-1": must be greater than or equal to 0']
  );
  assert.deepEqual(
    messages(
      validateResourceQuotaUpdate(
        rq({ hard: { pods: '1' }, scopes: ['BestEffort'] }),
        rq({ hard: { pods: '1' }, scopes: ['NotTerminating'] })
      )
    ),
    ['spec.scopes: Invalid value: ["BestEffort"]: field is immutable']
  );
  const created = rq({ hard: { pods: '1' } }, { hard: { pods: '9' }, used: { pods: '0' } });
  resourceQuotaStrategy.prepareForCreate(created);
  assert.deepEqual(created['status'], {});
});

const lr = (limits: Record<string, unknown>[]): ApiObject => ({
  apiVersion: 'v1',
  kind: 'LimitRange',
  metadata: { name: 'l', namespace: 'ns' },
  spec: { limits },
});

test('LimitRange validation: upstream messages name the field', () => {
  const rows: [string, Record<string, unknown>[], string[]][] = [
    [
      'valid',
      [
        {
          type: 'Container',
          min: { cpu: '100m' },
          max: { cpu: '2' },
          default: { cpu: '500m' },
          defaultRequest: { cpu: '200m' },
          maxLimitRequestRatio: { cpu: '10' },
        },
        { type: 'Pod', max: { memory: '1Gi' } },
        { type: 'PersistentVolumeClaim', min: { storage: '1Gi' } },
      ],
      [],
    ],
    [
      'duplicate type',
      [
        { type: 'Pod', max: { cpu: '1' } },
        { type: 'Pod', max: { cpu: '2' } },
      ],
      ['spec.limits[1].type: Duplicate value: "Pod"'],
    ],
    [
      'unknown type',
      [{ type: 'Node' }],
      [
        'spec.limits[0].type: Invalid value: "Node": must be a standard limit type or fully qualified',
      ],
    ],
    [
      'min over max',
      [{ type: 'Container', min: { cpu: '2' }, max: { cpu: '1' } }],
      ['spec.limits[0].min[cpu]: Invalid value: "2": min value 2 is greater than max value 1'],
    ],
    [
      'default over max',
      [{ type: 'Container', max: { memory: '1Gi' }, default: { memory: '2Gi' } }],
      [
        'spec.limits[0].default[memory]: Invalid value: "1Gi": default value 2Gi is greater than max value 1Gi',
      ],
    ],
    [
      'default request over default',
      [{ type: 'Container', default: { cpu: '1' }, defaultRequest: { cpu: '2' } }],
      [
        'spec.limits[0].defaultRequest[cpu]: Invalid value: "2": default request value 2 is greater than default limit value 1',
      ],
    ],
    [
      'defaults on Pod',
      [{ type: 'Pod', default: { cpu: '1' } }],
      ["spec.limits[0].default: Forbidden: may not be specified when `type` is 'Pod'"],
    ],
    [
      'claim without storage bounds',
      [{ type: 'PersistentVolumeClaim', max: {} }],
      [
        'spec.limits[0].limits: Required value: either minimum or maximum storage value is required, but neither was provided',
      ],
    ],
    [
      'ratio under 1',
      [{ type: 'Container', maxLimitRequestRatio: { cpu: '500m' } }],
      [
        'spec.limits[0].maxLimitRequestRatio[cpu]: Invalid value: "500m": ratio 500m is less than 1',
      ],
    ],
    [
      'ratio over max/min',
      [
        {
          type: 'Container',
          min: { cpu: '1' },
          max: { cpu: '2' },
          maxLimitRequestRatio: { cpu: '3' },
        },
      ],
      [
        'spec.limits[0].maxLimitRequestRatio[cpu]: Invalid value: "3": ratio 3 is greater than max/min = 2.000000',
      ],
    ],
    [
      'not a container resource',
      [{ type: 'Container', max: { pods: '1' } }],
      [
        'spec.limits[0].max[pods]: Invalid value: "pods": must be a standard resource for containers',
      ],
    ],
    [
      'hugepages cannot overcommit',
      [
        {
          type: 'Container',
          default: { 'hugepages-2Mi': '4Mi' },
          defaultRequest: { 'hugepages-2Mi': '2Mi' },
        },
      ],
      [
        'spec.limits[0].defaultRequest[hugepages-2Mi]: Invalid value: "2Mi": default value 4Mi must equal to defaultRequest value 2Mi in hugepages-2Mi',
      ],
    ],
  ];
  for (const [name, limits, want] of rows) {
    assert.deepEqual(
      validateLimitRange(lr(limits)).map((e) => fieldErrorMessage(e)),
      want,
      name
    );
  }
});

test('LimitRange defaulting: default limit from max, default request from default, else min', () => {
  const obj = lr([
    {
      type: 'Container',
      max: { cpu: '2', memory: '1Gi' },
      min: { 'ephemeral-storage': '1Gi' },
      default: { memory: '512Mi' },
    },
    { type: 'Pod', max: { cpu: '4' } },
  ]);
  defaultLimitRange(obj);
  assert.deepEqual((obj['spec'] as { limits: unknown[] }).limits, [
    {
      type: 'Container',
      max: { cpu: '2', memory: '1Gi' },
      min: { 'ephemeral-storage': '1Gi' },
      default: { memory: '512Mi', cpu: '2' },
      defaultRequest: { memory: '512Mi', cpu: '2', 'ephemeral-storage': '1Gi' },
    },
    { type: 'Pod', max: { cpu: '4' } },
  ]);
});
