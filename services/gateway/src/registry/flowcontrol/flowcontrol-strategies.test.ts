// flowcontrol.apiserver.orch.io/v1 strategies as table tests, each row naming the upstream rule
// (k8s pkg/apis/flowcontrol/validation ValidateFlowSchema, ValidatePriorityLevelConfiguration).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FieldError } from '@orch/apimachinery/errors';
import type { ApiObject } from '@orch/apimachinery/meta';
import { validateFlowSchema } from './flowschemas/strategy.js';
import {
  requiredEntropyBits,
  validatePriorityLevelConfiguration,
} from './prioritylevelconfigurations/strategy.js';

const fmt = (errs: FieldError[]): string[] =>
  errs.map((e) => `${e.field}: ${e.type}${e.message ? `: ${e.message}` : ''}`);
function check(errs: FieldError[], want: string[]): void {
  const got = fmt(errs);
  assert.equal(got.length, want.length, got.join('\n'));
  got.forEach((g, i) => assert.ok(g.startsWith(want[i]!), `${g}\n  wanted ${want[i]!}`));
}

const rule = (r: Record<string, unknown> = {}) => ({
  subjects: [{ kind: 'Group', group: { name: 'system:authenticated' } }],
  resourceRules: [
    { verbs: ['get'], apiGroups: [''], resources: ['pods'], namespaces: ['default'] },
  ],
  ...r,
});
const fs = (spec: Record<string, unknown>, name = 'fs'): ApiObject => ({
  metadata: { name },
  spec: {
    priorityLevelConfiguration: { name: 'workload-low' },
    matchingPrecedence: 500,
    rules: [rule()],
    ...spec,
  },
});
const fsRows: [string, ApiObject, string[]][] = [
  ['a valid schema', fs({}), []],
  [
    'matchingPrecedence: positive',
    fs({ matchingPrecedence: -1 }),
    ['spec.matchingPrecedence: FieldValueInvalid: must be a positive value'],
  ],
  [
    'matchingPrecedence: at most 10000',
    fs({ matchingPrecedence: 10001 }),
    ['spec.matchingPrecedence: FieldValueInvalid: must not be greater than 10000'],
  ],
  [
    "matchingPrecedence: 1 only for 'exempt'",
    fs({ matchingPrecedence: 1 }),
    [
      "spec.matchingPrecedence: FieldValueInvalid: only the schema named 'exempt' may have matching precedence 1",
    ],
  ],
  [
    'distinguisherMethod: supported types',
    fs({ distinguisherMethod: { type: 'ByIP' } }),
    [
      'spec.distinguisherMethod.type: FieldValueNotSupported: supported values: "ByNamespace", "ByUser"',
    ],
  ],
  [
    'priorityLevelConfiguration.name: required',
    fs({ priorityLevelConfiguration: {} }),
    ['spec.priorityLevelConfiguration.name: FieldValueRequired: must reference a priority level'],
  ],
  [
    'rules[].subjects: at least one',
    fs({ rules: [rule({ subjects: [] })] }),
    ['spec.rules[0].subjects: FieldValueRequired: subjects must contain at least one value'],
  ],
  [
    'subjects: the member of the kind',
    fs({ rules: [rule({ subjects: [{ kind: 'User', group: { name: 'g' } }] })] }),
    [
      "spec.rules[0].subjects[0].user: FieldValueRequired: user is required when subject kind is 'User'",
      "spec.rules[0].subjects[0].group: FieldValueForbidden: group is forbidden when subject kind is not 'Group'",
    ],
  ],
  [
    'subjects: a service account with its namespace',
    fs({
      rules: [rule({ subjects: [{ kind: 'ServiceAccount', serviceAccount: { name: 'a' } }] })],
    }),
    [
      'spec.rules[0].subjects[0].serviceAccount.namespace: FieldValueRequired: must specify namespace for service account',
    ],
  ],
  [
    'rules: resource or non-resource rules',
    fs({ rules: [rule({ resourceRules: [] })] }),
    [
      'spec.rules[0]: FieldValueRequired: at least one of resourceRules and nonResourceRules has to be non-empty',
    ],
  ],
  [
    "resourceRules: '*' alone among verbs",
    fs({
      rules: [
        rule({
          resourceRules: [
            { verbs: ['*', 'get'], apiGroups: ['*'], resources: ['*'], clusterScope: true },
          ],
        }),
      ],
    }),
    [
      "spec.rules[0].resourceRules[0].verbs: FieldValueInvalid: if '*' is present, must not specify other verbs",
    ],
  ],
  [
    'resourceRules: namespaces unless cluster scoped',
    fs({
      rules: [rule({ resourceRules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }] })],
    }),
    [
      'spec.rules[0].resourceRules[0].namespaces: FieldValueRequired: resource rules that are not cluster scoped must supply at least one namespace',
    ],
  ],
  [
    'nonResourceRules: URLs required',
    fs({ rules: [rule({ resourceRules: [], nonResourceRules: [{ verbs: ['get'] }] })] }),
    [
      'spec.rules[0].nonResourceRules[0].nonResourceURLs: FieldValueRequired: nonResourceURLs must contain at least one value',
    ],
  ],
];
for (const [name, o, want] of fsRows)
  test(`ValidateFlowSchema, ${name}`, () => check(validateFlowSchema(o), want));

const limited = (l: Record<string, unknown>) => ({
  type: 'Limited',
  limited: {
    nominalConcurrencyShares: 30,
    limitResponse: { type: 'Queue', queuing: { queues: 64, handSize: 8, queueLengthLimit: 50 } },
    ...l,
  },
});
const pl = (spec: Record<string, unknown>, name = 'workload-low'): ApiObject => ({
  metadata: { name },
  spec,
});
const plRows: [string, ApiObject, string[]][] = [
  ['a valid limited level', pl(limited({})), []],
  ['an exempt level named exempt', pl({ type: 'Exempt', exempt: {} }, 'exempt'), []],
  [
    "type Exempt if and only if name is 'exempt'",
    pl({ type: 'Exempt' }),
    ["spec.type: FieldValueInvalid: type must be 'Exempt' if and only if name is 'exempt'"],
  ],
  [
    'type: supported values',
    pl({ type: 'Unlimited' }),
    ['spec.type: FieldValueNotSupported: supported values: "Exempt", "Limited"'],
  ],
  [
    'Limited: limited required',
    pl({ type: 'Limited' }),
    ['spec.limited: FieldValueRequired: must not be empty when type is Limited'],
  ],
  [
    'Limited: exempt forbidden',
    pl({ ...limited({}), exempt: {} }),
    ['spec.exempt: FieldValueForbidden: must be nil if the type is Limited'],
  ],
  [
    'lendablePercent: 0 to 100',
    pl(limited({ lendablePercent: 101 })),
    ['spec.limited.lendablePercent: FieldValueInvalid: must be between 0 and 100, inclusive'],
  ],
  [
    'limitResponse Reject: no queuing',
    pl(limited({ limitResponse: { type: 'Reject', queuing: { queues: 1 } } })),
    [
      'spec.limited.limitResponse.queuing: FieldValueForbidden: must be nil if limited.limitResponse.type is not Limited',
    ],
  ],
  [
    'queuing: handSize not above queues',
    pl(
      limited({
        limitResponse: { type: 'Queue', queuing: { queues: 4, handSize: 8, queueLengthLimit: 1 } },
      })
    ),
    [
      'spec.limited.limitResponse.queuing.handSize: FieldValueInvalid: should not be greater than queues (4)',
    ],
  ],
  [
    'queuing: shuffle-sharding entropy at most 60 bits',
    pl(
      limited({
        limitResponse: {
          type: 'Queue',
          queuing: { queues: 1000000, handSize: 5, queueLengthLimit: 1 },
        },
      })
    ),
    [
      'spec.limited.limitResponse.queuing.handSize: FieldValueInvalid: required entropy bits of deckSize 1000000 and handSize 5 should not be greater than 60',
    ],
  ],
];
for (const [name, o, want] of plRows)
  test(`ValidatePriorityLevelConfiguration, ${name}`, () =>
    check(validatePriorityLevelConfiguration(o), want));

test('shufflesharding.RequiredEntropyBits', () => {
  assert.equal(requiredEntropyBits(64, 8), 48);
  assert.equal(requiredEntropyBits(128, 6), 42);
});
