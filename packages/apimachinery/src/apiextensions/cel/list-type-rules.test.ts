// x-kubernetes-list-type set and map in x-kubernetes-validations rules, as upstream's
// valuesunstructured.go unstructuredSetList/unstructuredMapList Equal and Add (and their tests
// in k8s.io/apiserver/pkg/cel/common/values_test.go and apiextensions-apiserver
// pkg/apiserver/schema/cel/validation_test.go "listSetEquality", "listMapEquality",
// "listSetUnion", "listMapMerge"): equality ignores order, `+` is a union or a key merge, and
// atomic lists keep plain list semantics.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { fieldErrorMessage } from '../../errors/status-error.js';
import type { JSONSchemaProps } from '../types.js';

import { evaluateSchemaRules } from './evaluate-schema-rules.js';

const strings = (listType?: string): JSONSchemaProps => ({
  type: 'array',
  items: { type: 'string' },
  ...(listType ? { 'x-kubernetes-list-type': listType } : {}),
});

const entries = (listType?: string): JSONSchemaProps => ({
  type: 'array',
  items: {
    type: 'object',
    required: ['k1', 'k2'],
    properties: {
      k1: { type: 'string' },
      k2: { type: 'integer' },
      v: { type: 'string' },
      tags: strings('set'),
    },
  },
  ...(listType === 'map'
    ? { 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['k1', 'k2'] }
    : listType
      ? { 'x-kubernetes-list-type': listType }
      : {}),
});

/** The failures of `rule` on `obj` under an object of `props`. */
function failures(props: Record<string, JSONSchemaProps>, rule: string, obj: unknown): string[] {
  const schema: JSONSchemaProps = {
    type: 'object',
    properties: props,
    'x-kubernetes-validations': [{ rule }],
  };
  return evaluateSchemaRules(schema, obj, undefined).errors.map(fieldErrorMessage);
}

const holds = (props: Record<string, JSONSchemaProps>, rule: string, obj: unknown): void =>
  assert.deepEqual(failures(props, rule, obj), [], rule);
const fails = (props: Record<string, JSONSchemaProps>, rule: string, obj: unknown): void =>
  assert.deepEqual(failures(props, rule, obj), [`: Invalid value: "object": failed rule: ${rule}`]);

describe('list-type set (upstream unstructuredSetList)', () => {
  const props = { a: strings('set'), b: strings('set'), c: strings() };
  const obj = { a: ['x', 'y', 'z'], b: ['z', 'x', 'y'], c: ['z', 'x', 'y'] };
  const rows: [string, string, boolean][] = [
    ['Equal ignores order', 'self.a == self.b', true],
    ['!= is its negation', 'self.a != self.b', false],
    ['Equal against a literal in another order', "self.a == ['y', 'z', 'x']", true],
    ['Equal needs the same size', "self.a == ['x', 'y']", false],
    ['Equal needs the same elements', "self.a == ['x', 'y', 'q']", false],
    ['the left operand decides: an atomic list compares in order', 'self.c == self.a', false],
    ['a set on the left compares an atomic list as a set', 'self.a == self.c', true],
    ['Add is a union keeping the left order', "self.a + ['w', 'x'] == ['x', 'y', 'z', 'w']", true],
    [
      'the union appends new elements in their order',
      "(self.a + ['w', 'x', 'v'])[3] == 'w' && (self.a + ['w', 'x', 'v'])[4] == 'v'",
      true,
    ],
    ['the union has no duplicates', "size(self.a + ['x', 'y']) == 3", true],
    ['a union is itself a set list', "self.a + ['w'] == ['w', 'z', 'y', 'x']", true],
    ['the union of two set lists', 'size(self.a + self.b) == 3', true],
  ];
  for (const [name, rule, want] of rows) {
    it(name, () => (want ? holds : fails)(props, rule, obj));
  }
});

describe('list-type map (upstream unstructuredMapList)', () => {
  // Object types differ by place (upstream names them by path), so the rules combine a list
  // with its own elements or with oldSelf, which is of the same type.
  const e1 = { k1: 'a', k2: 1, v: 'one' };
  const e2 = { k1: 'a', k2: 2, v: 'two' };
  const e3 = { k1: 'b', k2: 1, v: 'three' };
  const list = entries('map');
  const check = (rule: string, self: unknown, old: unknown, want: boolean): void => {
    const schema: JSONSchemaProps = { ...list, 'x-kubernetes-validations': [{ rule }] };
    const got = evaluateSchemaRules(schema, self, old).errors.map(fieldErrorMessage);
    assert.deepEqual(got, want ? [] : [`: Invalid value: "array": failed rule: ${rule}`], rule);
  };
  const rows: [string, string, unknown, unknown, boolean][] = [
    [
      'Equal compares by map keys ignoring order',
      'self == oldSelf',
      [e1, e2, e3],
      [e3, e1, e2],
      true,
    ],
    ['!= is its negation', 'self != oldSelf', [e1, e2, e3], [e3, e1, e2], false],
    [
      'Equal compares the elements with the same keys',
      'self == oldSelf',
      [e1, e2, e3],
      [e1, e2, { ...e3, v: 'other' }],
      false,
    ],
    ['Equal needs the same keys', 'self == oldSelf', [e1, e2], [e1, e3], false],
    ['Equal needs the same size', 'self == oldSelf', [e1, e2], [e1, e2, e3], false],
    [
      'a map list on the left compares a list literal by keys',
      'self == [self[2], self[0], self[1]]',
      [e1, e2, e3],
      undefined,
      true,
    ],
    [
      'the left operand decides: a list literal compares in order',
      '[self[2], self[0], self[1]] == self',
      [e1, e2, e3],
      undefined,
      false,
    ],
    [
      'Add replaces an element with the same keys at its position',
      "(self + oldSelf)[1].v == 'new'",
      [e1, e2, e3],
      [{ ...e2, v: 'new' }],
      true,
    ],
    [
      'Add keeps the size when the keys exist',
      'size(self + oldSelf) == 3',
      [e1, e2, e3],
      [{ ...e2, v: 'new' }, e1],
      true,
    ],
    [
      'Add appends an element with new keys, in their order',
      "size(self + oldSelf) == 5 && (self + oldSelf)[3].v == 'four' && (self + oldSelf)[4].v == 'five'",
      [e1, e2, e3],
      [
        { k1: 'c', k2: 1, v: 'four' },
        { k1: 'c', k2: 2, v: 'five' },
      ],
      true,
    ],
    [
      'the right operand replaces the whole element',
      "(self + oldSelf).exists(e, e.k1 == 'a' && e.k2 == 1 && !has(e.v))",
      [e1, e2, e3],
      [{ k1: 'a', k2: 1 }],
      true,
    ],
    [
      'a merge is itself a map list',
      'self + [self[0]] == [self[2], self[1], self[0]]',
      [e1, e2, e3],
      undefined,
      true,
    ],
    [
      'a map list plus itself keeps each key once',
      'size(self + self) == 3',
      [e1, e2, e3],
      undefined,
      true,
    ],
  ];
  for (const [name, rule, self, old, want] of rows) {
    it(name, () => check(rule, self, old, want));
  }

  it('an atomic list of objects concatenates and compares in order', () => {
    const schema: JSONSchemaProps = {
      ...entries(),
      'x-kubernetes-validations': [
        { rule: 'size(self + self) == 6' },
        { rule: 'self != [self[2], self[0], self[1]]' },
      ],
    };
    assert.deepEqual(evaluateSchemaRules(schema, [e1, e2, e3], undefined).errors, []);
  });

  it('a set list inside map-list elements compares as a set', () => {
    const t1 = { k1: 'a', k2: 1, tags: ['p', 'q'] };
    const t2 = { k1: 'a', k2: 1, tags: ['q', 'p'] };
    check('self == oldSelf', [t1], [t2], true);
    check('self[0] == oldSelf[0]', [t1], [t2], true);
    check('self[0].tags == oldSelf[0].tags', [t1], [t2], true);
  });
});

describe('list-type atomic (upstream unstructuredList)', () => {
  const props = { a: strings('atomic'), b: strings() };
  const rows: [string, string, boolean][] = [
    ['Equal is ordered', 'self.a == self.b', false],
    ['Add concatenates', "self.a + ['x'] == ['x', 'y', 'x']", true],
    ['Add keeps duplicates', "size(self.b + ['x']) == 3", true],
  ];
  for (const [name, rule, want] of rows) {
    it(name, () => (want ? holds : fails)(props, rule, { a: ['x', 'y'], b: ['y', 'x'] }));
  }
});

describe('list-type set of non-scalars (upstream setElementKey)', () => {
  it('comparing a set of atomic objects is an evaluation error', () => {
    const schema: JSONSchemaProps = {
      type: 'array',
      'x-kubernetes-list-type': 'set',
      items: {
        type: 'object',
        'x-kubernetes-map-type': 'atomic',
        properties: { a: { type: 'string' } },
      },
      'x-kubernetes-validations': [{ rule: 'self == oldSelf' }],
    };
    assert.deepEqual(
      evaluateSchemaRules(schema, [{ a: 'x' }], [{ a: 'x' }]).errors.map(fieldErrorMessage),
      [
        ': Invalid value: "array": listSet operations are only supported on lists of scalar values evaluating rule: self == oldSelf',
      ]
    );
  });
});

describe('transition rules over set and map lists', () => {
  it('self == oldSelf on a set list ignores reordering (upstream immutability rules)', () => {
    const schema: JSONSchemaProps = {
      type: 'object',
      properties: {
        s: {
          ...strings('set'),
          'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: 'immutable' }],
        },
      },
    };
    const run = (o: unknown, old: unknown): string[] =>
      evaluateSchemaRules(schema, o, old).errors.map(fieldErrorMessage);
    assert.deepEqual(run({ s: ['b', 'a'] }, { s: ['a', 'b'] }), []);
    assert.deepEqual(run({ s: ['b', 'c'] }, { s: ['a', 'b'] }), [
      's: Invalid value: "array": immutable',
    ]);
  });
});
