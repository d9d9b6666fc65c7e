// Tables for x-kubernetes-validations: type mapping, escapes, compile errors, cost refusals,
// transition rules, correlation, messages, reasons, fieldPath and budget.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { newPath } from '../../errors/field-errors.js';
import { fieldErrorMessage } from '../../errors/status-error.js';
import type { JSONSchemaProps } from '../types.js';

import { celTypeOf, escapeCelPropertyName } from './cel-type-of.js';
import { evaluateSchemaRules } from './evaluate-schema-rules.js';
import { validateSchemaRules } from './validate-schema-rules.js';

const root = newPath('openAPIV3Schema');
const msgs = (s: JSONSchemaProps): string[] => validateSchemaRules(s, root).map(fieldErrorMessage);
const run = (s: JSONSchemaProps, o: unknown, old?: unknown, budget?: number): string[] =>
  evaluateSchemaRules(s, o, old, { budget }).errors.map(fieldErrorMessage);

describe('celTypeOf (spec: type mapping; upstream SchemaDeclType)', () => {
  const item: JSONSchemaProps = {
    type: 'object',
    properties: { name: { type: 'string' }, n: { type: 'integer' } },
  };
  const rows: [string, JSONSchemaProps, string, Record<string, Record<string, string>>?][] = [
    ['integer → int', { type: 'integer' }, 'int'],
    ['number → double', { type: 'number' }, 'double'],
    ['byte → bytes', { type: 'string', format: 'byte' }, 'bytes'],
    ['date → timestamp', { type: 'string', format: 'date' }, 'google.protobuf.Timestamp'],
    ['date-time → timestamp', { type: 'string', format: 'date-time' }, 'google.protobuf.Timestamp'],
    ['duration → duration', { type: 'string', format: 'duration' }, 'google.protobuf.Duration'],
    ['int-or-string → dyn', { 'x-kubernetes-int-or-string': true }, 'dyn'],
    [
      'additionalProperties → map',
      { type: 'object', additionalProperties: { type: 'integer' } },
      'map<string, int>',
    ],
    [
      'properties → object',
      { type: 'object', properties: { 'a-b': { type: 'string' } } },
      '$self',
      { $self: { a__dash__b: 'string' } },
    ],
    ['list', { type: 'array', items: { type: 'boolean' } }, 'list<bool>'],
    [
      'list of objects → list of the items’ object type',
      { type: 'array', items: item },
      'list<$self.@idx>',
      { '$self.@idx': { name: 'string', n: 'int' } },
    ],
    [
      'map of objects → map to the values’ object type',
      { type: 'object', additionalProperties: item },
      'map<string, $self.@elem>',
      { '$self.@elem': { name: 'string', n: 'int' } },
    ],
    [
      'nested: object with a list of objects',
      { type: 'object', properties: { l: { type: 'array', items: item } } },
      '$self',
      {
        '$self.l.@idx': { name: 'string', n: 'int' },
        $self: { l: 'list<$self.l.@idx>' },
      },
    ],
    [
      'preserve-unknown → dyn',
      { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
      'dyn',
    ],
    [
      'list of preserve-unknown objects → list<dyn>',
      { type: 'array', items: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
      'list<dyn>',
    ],
    [
      'embedded → object with apiVersion/kind/metadata',
      { type: 'object', 'x-kubernetes-embedded-resource': true, properties: {} },
      '$self',
      {
        '$self.metadata': { name: 'string', generateName: 'string' },
        $self: { apiVersion: 'string', kind: 'string', metadata: '$self.metadata' },
      },
    ],
  ];
  for (const [name, s, type, objectTypes] of rows) {
    it(name, () => {
      const got = celTypeOf(s);
      assert.equal(got.type, type);
      assert.deepEqual(
        Object.fromEntries(got.objectTypes.map((t) => [t.name, t.fields])),
        objectTypes ?? {}
      );
      // A type is declared before the types naming it.
      got.objectTypes.forEach((t, i) => {
        const before = new Set(got.objectTypes.slice(0, i).map((o) => o.name));
        for (const f of Object.values(t.fields)) {
          for (const named of f.match(/\$[^<>, ]+/gu) ?? []) assert.ok(before.has(named), named);
        }
      });
    });
  }
});

describe('escapeCelPropertyName (spec: escapes)', () => {
  const rows: [string, string | undefined][] = [
    ['a__b', 'a__underscores__b'],
    ['a.b', 'a__dot__b'],
    ['a-b', 'a__dash__b'],
    ['a/b', 'a__slash__b'],
    ['namespace', '__namespace__'],
    ['1a', undefined],
    ['a b', undefined],
  ];
  for (const [n, want] of rows) it(n, () => assert.equal(escapeCelPropertyName(n), want));
});

const obj = (
  props: Record<string, JSONSchemaProps>,
  rules?: JSONSchemaProps['x-kubernetes-validations']
): JSONSchemaProps => ({
  type: 'object',
  properties: props,
  ...(rules ? { 'x-kubernetes-validations': rules } : {}),
});

describe('validateSchemaRules', () => {
  it('compile error names the rule and position', () => {
    const e = msgs(obj({ a: { type: 'integer' } }, [{ rule: 'self.zz > 1' }]));
    assert.equal(e.length, 1);
    assert.match(
      e[0] ?? '',
      /^openAPIV3Schema\.x-kubernetes-validations\[0\]\.rule: Invalid value: "self\.zz > 1": compilation failed: ERROR: <input>:1:\d+: /u
    );
  });
  it('type mismatch is a compile error', () => {
    assert.equal(
      msgs(obj({ a: { type: 'integer' } }, [{ rule: 'self.a + "x" == "y"' }])).length,
      1
    );
  });
  it('non-bool rule refused', () => {
    assert.match(
      msgs(obj({ a: { type: 'integer' } }, [{ rule: 'self.a' }]))[0] ?? '',
      /must evaluate to a bool/u
    );
  });
  it('optionalOldSelf with orValue compiles and is estimated (a macro holding its own node)', () => {
    const s = obj({ a: { type: 'string' } }, [
      { rule: 'oldSelf.orValue(self).a == self.a', optionalOldSelf: true },
    ]);
    assert.deepEqual(msgs(s), []);
    assert.deepEqual(run(s, { a: 'x' }), []);
    assert.deepEqual(run(s, { a: 'x' }, { a: 'y' }), [
      ': Invalid value: "object": failed rule: oldSelf.orValue(self).a == self.a',
    ]);
  });
  it('self == oldSelf on an object compiles', () => {
    assert.deepEqual(msgs(obj({ a: { type: 'integer' } }, [{ rule: 'self == oldSelf' }])), []);
  });
  it('reason, message, messageExpression and fieldPath forms', () => {
    const e = msgs(
      obj({ a: { type: 'string' } }, [
        { rule: 'true', reason: 'Bad' },
        { rule: 'true', message: 'a\nb' },
        { rule: 'true', messageExpression: '1' },
        { rule: 'true', fieldPath: '.nope' },
        { rule: 'true', optionalOldSelf: true },
      ])
    );
    assert.match(e[0] ?? '', /reason: Unsupported value: "Bad"/u);
    assert.match(e[1] ?? '', /message: Invalid value: .*must not contain line breaks/u);
    assert.match(
      e[2] ?? '',
      /messageExpression: Invalid value: .*messageExpression must evaluate to a string/u
    );
    assert.match(e[3] ?? '', /fieldPath: Invalid value: ".nope": must be a valid path/u);
    assert.match(
      e[4] ?? '',
      /optionalOldSelf: Invalid value: true: may not be set if oldSelf is not used in rule/u
    );
  });
  it('oldSelf under an atomic list is refused', () => {
    const s: JSONSchemaProps = {
      type: 'array',
      items: obj({ a: { type: 'string' } }, [{ rule: 'self.a == oldSelf.a' }]),
    };
    assert.match(
      msgs(s)[0] ?? '',
      /oldSelf cannot be used on the uncorrelatable portion of the schema within openAPIV3Schema/u
    );
    assert.deepEqual(
      msgs({ ...s, 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['a'] }),
      []
    );
  });
  it('cost: unbounded list of unbounded strings refused, bounded accepted', () => {
    const rule = [{ rule: "self.l.all(x, x.matches('^[a-z]+$'))" }];
    const unbounded = obj({ l: { type: 'array', items: { type: 'string' } } }, rule);
    const e = msgs(unbounded);
    assert.match(
      e[0] ?? '',
      /rule: Forbidden: estimated rule cost exceeds budget by factor of more than 100x \(try simplifying the rule, or adding maxItems, maxProperties, and maxLength/u
    );
    const bounded = obj(
      { l: { type: 'array', maxItems: 10, items: { type: 'string', maxLength: 10 } } },
      rule
    );
    assert.deepEqual(msgs(bounded), []);
  });
  it('cost: total over the CRD limit', () => {
    // ⌈40,000 × 0.1⌉ × ⌈17 × 0.25⌉ = 20,000 a string, 8,000,000 for 400 of them.
    const rule = [{ rule: "self.s.matches('^[a-z]{0,100}$')" }];
    const item = obj({ s: { type: 'string', maxLength: 40_000 } }, rule);
    // Each rule stays under the per-rule limit; twenty of them pass the per-CRD one.
    const props: Record<string, JSONSchemaProps> = {};
    for (let i = 0; i < 20; i++) props[`l${i}`] = { type: 'array', maxItems: 400, items: item };
    const s: JSONSchemaProps = { type: 'object', properties: props };
    const e = msgs(s);
    assert.ok(
      e.some((m) =>
        /Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema/u.test(
          m
        )
      ),
      e.join('\n')
    );
    assert.ok(
      e.some((m) =>
        /^openAPIV3Schema: Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget/u.test(
          m
        )
      ),
      e.join('\n')
    );
  });
});

describe('typed list items and map values (upstream DeclType, compilation_test.go)', () => {
  const item: JSONSchemaProps = {
    type: 'object',
    properties: { name: { type: 'string', maxLength: 10 }, n: { type: 'integer' } },
  };
  const list = (extra: Partial<JSONSchemaProps> = {}): JSONSchemaProps => ({
    type: 'array',
    items: item,
    ...extra,
  });
  const map: JSONSchemaProps = { type: 'object', additionalProperties: item };
  const withRule = (s: JSONSchemaProps, rule: string): JSONSchemaProps => ({
    ...s,
    'x-kubernetes-validations': [{ rule }],
  });
  const rows: [string, JSONSchemaProps, string, RegExp | undefined][] = [
    ['an element’s declared field', list(), "self.all(x, x.name.startsWith('a'))", undefined],
    ['an element’s field in map()', list(), 'self.map(x, x.n).all(n, n > 0)', undefined],
    [
      'an element’s undeclared field is a compile error',
      list(),
      "self.all(x, x.nme.startsWith('a'))",
      /compilation failed: ERROR: <input>:1:\d+: undefined field 'nme'$/u,
    ],
    [
      'an element’s field of another type is a compile error',
      list(),
      "self.all(x, x.n > 'a')",
      /no such overload: int > string/u,
    ],
    ['an indexed element’s field', list(), "self[0].name != ''", undefined],
    ['a map value’s declared field', map, 'self.all(k, self[k].name == k)', undefined],
    [
      'a map value’s undeclared field is a compile error',
      map,
      'self.all(k, self[k].nm == k)',
      /undefined field 'nm'/u,
    ],
    [
      'oldSelf has the type of self',
      { type: 'object', properties: { a: { type: 'string' } } },
      'self.a == oldSelf.b',
      /undefined field 'b'/u,
    ],
    [
      'elements of a list of preserve-unknown objects stay dyn',
      { type: 'array', items: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
      'self.all(x, x.anything == 1)',
      undefined,
    ],
    [
      'cost: maxItems bounds a scan of the elements’ strings',
      list({ maxItems: 5 }),
      "self.all(x, x.name.matches('^(alpha|beta|gamma|delta|epsilon|zeta|eta|theta|iota|kappa|lambda)+$'))",
      undefined,
    ],
    [
      'cost: a map’s keys are sized as upstream sizes them (KeyType StringType, 0), so a regex over keys of a bounded map fits (Gateway API)',
      {
        type: 'object',
        maxProperties: 16,
        additionalProperties: { type: 'string', maxLength: 4096 },
      },
      "self.all(key, key.matches('^([a-z0-9]([-a-z0-9]*[a-z0-9])?/)?[A-Za-z0-9]$'))",
      undefined,
    ],
    [
      'cost: without maxItems the same scan exceeds the budget',
      list(),
      "self.all(x, x.name.matches('^(alpha|beta|gamma|delta|epsilon|zeta|eta|theta|iota|kappa|lambda)+$'))",
      /Forbidden: estimated rule cost exceeds budget by factor of 2\.0x/u,
    ],
  ];
  for (const [name, s, rule, want] of rows) {
    it(name, () => {
      const e = msgs(withRule(s, rule));
      if (want === undefined) assert.deepEqual(e, []);
      else {
        assert.equal(e.length, 1, e.join('\n'));
        assert.match(e[0] ?? '', want);
      }
    });
  }
  it('the rule runs over the elements’ values', () => {
    const s = withRule(list(), "self.all(x, x.name.startsWith('a') && x.n > 0)");
    assert.deepEqual(run(s, [{ name: 'ab', n: 1 }]), []);
    assert.deepEqual(
      run(s, [
        { name: 'ab', n: 1 },
        { name: 'b', n: 1 },
      ]),
      [`: Invalid value: "array": failed rule: self.all(x, x.name.startsWith('a') && x.n > 0)`]
    );
  });
});

describe('evaluateSchemaRules', () => {
  const spec = obj({ replicas: { type: 'integer' }, name: { type: 'string' } }, [
    { rule: 'self.replicas < 10' },
    { rule: 'self.name == oldSelf.name', message: 'name is immutable' },
  ]);
  const s = obj({ spec });
  it('failed rule without message, transition skipped on create', () => {
    assert.deepEqual(run(s, { spec: { replicas: 12, name: 'a' } }), [
      'spec: Invalid value: "object": failed rule: self.replicas < 10',
    ]);
  });
  it('transition rule runs on update', () => {
    assert.deepEqual(
      run(s, { spec: { replicas: 1, name: 'b' } }, { spec: { replicas: 1, name: 'a' } }),
      ['spec: Invalid value: "object": name is immutable']
    );
  });
  it('optionalOldSelf runs on create', () => {
    const t = obj({
      a: {
        type: 'string',
        'x-kubernetes-validations': [
          { rule: '!oldSelf.hasValue() && self == "x"', optionalOldSelf: true },
        ],
      },
    });
    assert.deepEqual(run(t, { a: 'x' }), []);
    assert.deepEqual(run(t, { a: 'y' }), [
      'a: Invalid value: "y": failed rule: !oldSelf.hasValue() && self == "x"',
    ]);
  });
  it('correlation through list-map keys', () => {
    const t: JSONSchemaProps = obj({
      l: {
        type: 'array',
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['k'],
        items: obj({ k: { type: 'string' }, v: { type: 'integer' } }, [
          { rule: 'self.v >= oldSelf.v', message: 'v may not decrease' },
        ]),
      },
    });
    const old = {
      l: [
        { k: 'a', v: 5 },
        { k: 'b', v: 5 },
      ],
    };
    assert.deepEqual(
      run(
        t,
        {
          l: [
            { k: 'b', v: 6 },
            { k: 'a', v: 4 },
          ],
        },
        old
      ),
      ['l[1]: Invalid value: "object": v may not decrease']
    );
  });
  it('messageExpression, reason and fieldPath', () => {
    const t = obj({ a: { type: 'integer' } }, [
      {
        rule: 'self.a < 3',
        messageExpression: '"a is " + string(self.a)',
        reason: 'FieldValueForbidden',
        fieldPath: '.a',
      },
    ]);
    assert.deepEqual(run(t, { a: 5 }), ['a: Forbidden: a is 5']);
  });
  it('runtime budget exhaustion', () => {
    const t = obj({ l: { type: 'array', items: { type: 'integer' } } }, [
      { rule: 'self.l.all(x, x > 0)' },
    ]);
    const r = evaluateSchemaRules(
      t,
      { l: Array.from({ length: 100 }, (_, i) => i + 1) },
      undefined,
      { budget: 50 }
    );
    assert.equal(r.remainingBudget, -1);
    assert.deepEqual(r.errors.map(fieldErrorMessage), [
      'Invalid value: "object": validation failed due to running out of cost budget, no further validation rules will be run'.replace(
        /^/u,
        ': '
      ),
    ]);
  });
  it('timestamps, durations and int-or-string at runtime', () => {
    const t = obj(
      {
        at: { type: 'string', format: 'date-time' },
        d: { type: 'string', format: 'duration' },
        p: { 'x-kubernetes-int-or-string': true },
      },
      [
        { rule: 'self.at < timestamp("2030-01-01T00:00:00Z")' },
        { rule: 'self.d <= duration("1h")' },
        { rule: 'type(self.p) == int ? self.p < 10 : self.p.endsWith("%")' },
      ]
    );
    assert.deepEqual(run(t, { at: '2020-01-01T00:00:00Z', d: '30m', p: 5 }), []);
    assert.equal(run(t, { at: '2040-01-01T00:00:00Z', d: '2h', p: 'x' }).length, 3);
  });
  it('per-call limit stops the rules', () => {
    const t = obj({ l: { type: 'array', items: { type: 'integer' } } }, [
      { rule: 'self.l.all(x, self.l.all(y, x + y > 0))' },
    ]);
    const r = evaluateSchemaRules(
      t,
      { l: Array.from({ length: 700 }, (_, i) => i + 1) },
      undefined
    );
    assert.equal(r.remainingBudget, -1);
    assert.match(
      r.errors.map(fieldErrorMessage)[0] ?? '',
      /no further validation rules will be run due to call cost exceeds limit for rule: self\.l\.all/u
    );
  });
  it('escaped property names at runtime', () => {
    const t = obj({ 'a-b': { type: 'integer' }, namespace: { type: 'string' } }, [
      { rule: 'self.a__dash__b == 1 && self.__namespace__ == "x"' },
    ]);
    assert.deepEqual(run(t, { 'a-b': 1, namespace: 'x' }), []);
    assert.equal(run(t, { 'a-b': 2, namespace: 'x' }).length, 1);
  });
  it('map values correlate by key', () => {
    const t = obj({
      m: {
        type: 'object',
        additionalProperties: {
          type: 'integer',
          'x-kubernetes-validations': [{ rule: 'self >= oldSelf', message: 'may not decrease' }],
        },
      },
    });
    assert.deepEqual(run(t, { m: { a: 1, b: 9 } }, { m: { a: 2, c: 10 } }), [
      'm[a]: Invalid value: 1: may not decrease',
    ]);
  });
  it('reason FieldValueRequired and Duplicate', () => {
    const t = obj({ a: { type: 'string' } }, [
      { rule: 'has(self.a)', reason: 'FieldValueRequired', message: 'a is required' },
    ]);
    assert.deepEqual(run(t, {}), [': Required value: a is required']);
  });
});
