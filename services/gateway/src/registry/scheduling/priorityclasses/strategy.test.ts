// PriorityClass and RuntimeClass strategies as table tests, each row naming the upstream rule
// (k8s pkg/apis/scheduling/validation ValidatePriorityClass(Update), pkg/apis/node/validation
// ValidateRuntimeClass(Update)).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FieldError } from '@orch/apimachinery/errors';
import type { ApiObject } from '@orch/apimachinery/meta';
import {
  systemPriorityClasses,
  validatePriorityClass,
  validatePriorityClassUpdate,
} from './strategy.js';
import { runtimeClassStrategy, validateRuntimeClass } from '../../node/runtimeclasses/strategy.js';

const fmt = (errs: FieldError[]): string[] =>
  errs.map((e) => `${e.field}: ${e.type}${e.message ? `: ${e.message}` : ''}`);
function check(errs: FieldError[], want: string[]): void {
  const got = fmt(errs);
  assert.equal(got.length, want.length, got.join('\n'));
  got.forEach((g, i) => assert.ok(g.startsWith(want[i]!), `${g}\n  wanted ${want[i]!}`));
}
const pc = (name: string, f: Record<string, unknown>): ApiObject => ({ metadata: { name }, ...f });

const rows: [string, ApiObject, string[]][] = [
  ['a user class up to 1e9', pc('high', { value: 1000000000 }), []],
  [
    'HighestUserDefinablePriority',
    pc('higher', { value: 1000000001 }),
    ['value: FieldValueForbidden: maximum allowed value of a user defined priority is 1000000000'],
  ],
  [
    'SystemPriorityClassPrefix reserved',
    pc('system-mine', { value: 5 }),
    [
      "metadata.name: FieldValueForbidden: priority class names with 'system-' prefix are reserved for system use only",
    ],
  ],
  ['IsKnownSystemPriorityClass: the system classes themselves', systemPriorityClasses[0]!, []],
  [
    'IsKnownSystemPriorityClass: a system name with another value is not one',
    pc('system-node-critical', { value: 5 }),
    [
      "metadata.name: FieldValueForbidden: priority class names with 'system-' prefix are reserved for system use only",
    ],
  ],
  [
    'preemptionPolicy: supported values',
    pc('p', { value: 1, preemptionPolicy: 'Always' }),
    ['preemptionPolicy: FieldValueNotSupported: supported values: "Never", "PreemptLowerPriority"'],
  ],
];
for (const [name, o, want] of rows)
  test(`ValidatePriorityClass, ${name}`, () => check(validatePriorityClass(o), want));

test('ValidatePriorityClassUpdate: value and preemptionPolicy never change; description may', () => {
  const old = pc('p', { value: 1, preemptionPolicy: 'Never' });
  check(
    validatePriorityClassUpdate(
      pc('p', { value: 2, preemptionPolicy: 'PreemptLowerPriority' }),
      old
    ),
    [
      'value: FieldValueForbidden: may not be changed in an update.',
      'preemptionPolicy: FieldValueInvalid: field is immutable',
    ]
  );
  check(
    validatePriorityClassUpdate(
      pc('p', { value: 1, preemptionPolicy: 'Never', description: 'd' }),
      old
    ),
    []
  );
});

const rc = (f: Record<string, unknown>): ApiObject => ({ metadata: { name: 'gvisor' }, ...f });
const rcRows: [string, ApiObject, string[]][] = [
  ['a valid class', rc({ handler: 'runsc', overhead: { podFixed: { cpu: '100m' } } }), []],
  ['handler: required', rc({}), ['handler: FieldValueRequired']],
  [
    'handler: a DNS label',
    rc({ handler: 'run.sc' }),
    ['handler: FieldValueInvalid: must not contain dots'],
  ],
  [
    'overhead: non-negative',
    rc({ handler: 'h', overhead: { podFixed: { memory: '-1Mi' } } }),
    ['overhead.podFixed[memory]: FieldValueInvalid: must be greater than or equal to 0'],
  ],
  [
    'scheduling.nodeSelector: label values',
    rc({ handler: 'h', scheduling: { nodeSelector: { a: 'b c' } } }),
    ['scheduling.nodeSelector[a]: FieldValueInvalid'],
  ],
  [
    'scheduling.tolerations: an empty key needs Exists',
    rc({ handler: 'h', scheduling: { tolerations: [{ operator: 'Equal', value: 'x' }] } }),
    [
      'scheduling.tolerations[0].operator: FieldValueInvalid: operator must be Exists when `key` is empty',
    ],
  ],
];
for (const [name, o, want] of rcRows)
  test(`ValidateRuntimeClass, ${name}`, () => check(validateRuntimeClass(o), want));
test('ValidateRuntimeClassUpdate: the handler is immutable', () => {
  check(runtimeClassStrategy.validateUpdate(rc({ handler: 'b' }), rc({ handler: 'a' })), [
    'handler: FieldValueInvalid: field is immutable',
  ]);
});
