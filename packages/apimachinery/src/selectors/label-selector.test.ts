import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  LabelSelector,
  labelSelectorFromLabelSelectorObject,
  newLabelRequirement,
  parseLabelSelector,
} from './label-selector.js';
import type { LabelSelectorObject } from './label-selector.js';
import { SelectorParseError } from './selector-parse-error.js';

test('parseLabelSelector accepts valid selectors and prints them canonically', () => {
  const cases: [input: string, canonical: string][] = [
    ['', ''],
    ['   ', ''],
    ['x=a', 'x=a'],
    ['x==a', 'x==a'],
    ['x!=a', 'x!=a'],
    ['x=a,y=b,z=c', 'x=a,y=b,z=c'],
    ['z=c,x=a,y=b', 'x=a,y=b,z=c'],
    ['x!=a,y=b', 'x!=a,y=b'],
    ['x=', 'x='],
    ['x= ', 'x='],
    ['x=,z= ', 'x=,z='],
    ['x= ,z= ', 'x=,z='],
    ['x', 'x'],
    ['!x', '!x'],
    ['! x', '!x'],
    ['x>1', 'x>1'],
    ['x>1,z<5', 'x>1,z<5'],
    ['x in (a)', 'x in (a)'],
    ['x in (b,a)', 'x in (a,b)'],
    ['x in (a,a,b)', 'x in (a,b)'],
    ['x notin (a)', 'x notin (a)'],
    ['x in ()', 'x in ()'],
    ['x in (a,)', 'x in (,a)'],
    ['x in (,a)', 'x in (,a)'],
    ['x in (a,,b)', 'x in (,a,b)'],
    ['x in (in,notin)', 'x in (in,notin)'],
    ['x=in', 'x=in'],
    ['in=x', 'in=x'],
    ['x  in  ( a , b )  ,  y', 'x in (a,b),y'],
    ['\tx\n=\ra', 'x=a'],
    ['x in(a),!y,z notin(c,d)', 'x in (a),!y,z notin (c,d)'],
    ['example.com/app=web', 'example.com/app=web'],
    ['a.b-c_d=A.B-c_9', 'a.b-c_d=A.B-c_9'],
    ['x=a,x=b', 'x=a,x=b'],
    [`${'k'.repeat(63)}=${'v'.repeat(63)}`, `${'k'.repeat(63)}=${'v'.repeat(63)}`],
  ];
  for (const [input, canonical] of cases) {
    const sel = parseLabelSelector(input);
    assert.equal(sel.toString(), canonical, `toString of ${JSON.stringify(input)}`);
    assert.equal(
      parseLabelSelector(sel.toString()).toString(),
      canonical,
      `round trip of ${JSON.stringify(input)}`
    );
  }
});

test('parseLabelSelector builds requirements sorted by key', () => {
  const sel = parseLabelSelector('z notin (b,a), !y, x>3, w');
  assert.deepEqual(sel.requirements, [
    { key: 'w', operator: 'exists', values: [] },
    { key: 'x', operator: 'gt', values: ['3'] },
    { key: 'y', operator: '!', values: [] },
    { key: 'z', operator: 'notin', values: ['a', 'b'] },
  ]);
});

test('parseLabelSelector rejects invalid selectors with a SelectorParseError naming the problem', () => {
  const cases: [input: string, messagePart: string][] = [
    ['x=a||y=b', 'invalid label value "a||y" for key "x"'],
    ['x=a,(y=b', "found '(' at position 4"],
    ['x=a,||y=b', 'invalid label key "||y"'],
    ['x==a==b', "found '=='"],
    ['!x=a', "found '='"],
    ['x<a', 'must be an integer'],
    ['x>1.5', 'must be an integer'],
    ['x>', 'must be an integer'],
    ['x>99999999999999999999', 'must be an integer'],
    ['x in a', "expected: '('"],
    ['x in (a', 'found end of string'],
    ['x in (a b)', "found 'b'"],
    ['x in (a)b', "found 'b'"],
    ['x notin', 'found end of string'],
    ['x in (a=)', "found '='"],
    ['x y', "found 'y'"],
    ['x,', 'found end of string'],
    [',x', "found ','"],
    ['x,,y', "found ','"],
    ['=a', "found '='"],
    ['!', 'found end of string'],
    ['!!x', "found '!'"],
    ['x=(a)', "found '('"],
    ['x=a b', "found 'b'"],
    ['x = = a', "found '='"],
    ['(x)', "found '('"],
    ['x) ', "found ')'"],
    ['-x=a', 'invalid label key "-x"'],
    ['x-=a', 'invalid label key "x-"'],
    ['a/b/c=d', 'invalid label key "a/b/c"'],
    ['/a=b', 'prefix part must be non-empty'],
    ['Example.com/a=b', 'prefix part a lowercase RFC 1123 subdomain'],
    ['example.com/=b', 'name part must be non-empty'],
    [`${'k'.repeat(64)}=v`, 'name part must be no more than 63 characters'],
    ['x=-a', 'invalid label value "-a" for key "x"'],
    ['x=a_', 'invalid label value "a_"'],
    [`x=${'v'.repeat(64)}`, 'must be no more than 63 characters'],
    ['x in (a,-b)', 'invalid label value "-b"'],
    ['x=a"', 'invalid label value "a\\""'],
    ['x=ä', 'invalid label value "ä"'],
  ];
  for (const [input, messagePart] of cases) {
    assert.throws(
      () => parseLabelSelector(input),
      (err: unknown) => {
        assert.ok(err instanceof SelectorParseError, `${input}: not a SelectorParseError`);
        assert.equal(err.name, 'SelectorParseError');
        assert.equal(err.selector, input);
        assert.ok(
          err.message.includes(messagePart),
          `${JSON.stringify(input)}: message ${JSON.stringify(err.message)} lacks ${JSON.stringify(messagePart)}`
        );
        assert.ok(err.message.includes(JSON.stringify(input)), 'message quotes the selector');
        return true;
      },
      `expected ${JSON.stringify(input)} to be rejected`
    );
  }
});

test('LabelSelector.matches follows k8s semantics', () => {
  const cases: [selector: string, labels: Record<string, string> | undefined, matches: boolean][] =
    [
      ['', {}, true],
      ['', undefined, true],
      ['', { x: 'y' }, true],
      ['x=y', { x: 'y' }, true],
      ['x==y', { x: 'y' }, true],
      ['x=y', { x: 'z' }, false],
      ['x=y', {}, false],
      ['x=y', undefined, false],
      ['x=', { x: '' }, true],
      ['x=', {}, false],
      ['x!=y', { x: 'z' }, true],
      ['x!=y', { x: 'y' }, false],
      ['x!=y', {}, true],
      ['x=y,z=w', { x: 'y', z: 'w' }, true],
      ['x=y,z=w', { x: 'y', z: 'q' }, false],
      ['x=y,x=z', { x: 'y' }, false],
      ['x in (a,b)', { x: 'a' }, true],
      ['x in (a,b)', { x: 'b' }, true],
      ['x in (a,b)', { x: 'c' }, false],
      ['x in (a,b)', {}, false],
      ['x in ()', { x: '' }, true],
      ['x in ()', {}, false],
      ['x notin (a,b)', { x: 'c' }, true],
      ['x notin (a,b)', { x: 'a' }, false],
      ['x notin (a,b)', {}, true],
      ['x notin (a,b)', undefined, true],
      ['x', { x: '' }, true],
      ['x', { x: 'a' }, true],
      ['x', { y: 'a' }, false],
      ['!x', { y: 'a' }, true],
      ['!x', { x: '' }, false],
      ['!x', undefined, true],
      ['x>1', { x: '2' }, true],
      ['x>1', { x: '1' }, false],
      ['x>1', { x: 'abc' }, false],
      ['x>1', {}, false],
      ['x<10', { x: '9' }, true],
      ['x<10', { x: '-3' }, true],
      ['x<10', { x: '10' }, false],
      ['x>1,x<5', { x: '3' }, true],
      ['x>1,x<5', { x: '5' }, false],
      ['x=toString', {}, false],
      ['toString', {}, false],
      ['!constructor', {}, true],
      ['x in (a),!y,z notin (c)', { x: 'a', z: 'd' }, true],
      ['x in (a),!y,z notin (c)', { x: 'a', y: '', z: 'd' }, false],
      ['example.com/app=web', { 'example.com/app': 'web' }, true],
    ];
  for (const [selector, labels, expected] of cases) {
    assert.equal(
      parseLabelSelector(selector).matches(labels),
      expected,
      `${JSON.stringify(selector)} on ${JSON.stringify(labels)}`
    );
  }
});

test('LabelSelector.empty, everything and nothing', () => {
  assert.equal(parseLabelSelector('').empty(), true);
  assert.equal(parseLabelSelector('x').empty(), false);
  assert.equal(LabelSelector.everything().empty(), true);
  assert.equal(LabelSelector.everything().matches({ a: 'b' }), true);
  const nothing = LabelSelector.nothing();
  assert.equal(nothing.empty(), false);
  assert.equal(nothing.matches({}), false);
  assert.equal(nothing.matches(undefined), false);
  assert.equal(nothing.toString(), '');
});

test('LabelSelector.requiresExactMatch', () => {
  const sel = parseLabelSelector('a=1,b==2,c in (3),d in (4,5),e!=6,f');
  assert.equal(sel.requiresExactMatch('a'), '1');
  assert.equal(sel.requiresExactMatch('b'), '2');
  assert.equal(sel.requiresExactMatch('c'), '3');
  assert.equal(sel.requiresExactMatch('d'), undefined);
  assert.equal(sel.requiresExactMatch('e'), undefined);
  assert.equal(sel.requiresExactMatch('f'), undefined);
  assert.equal(sel.requiresExactMatch('g'), undefined);
});

test('newLabelRequirement validates like k8s NewRequirement', () => {
  assert.deepEqual(newLabelRequirement('a', 'in', ['y', 'x', 'y']), {
    key: 'a',
    operator: 'in',
    values: ['x', 'y'],
  });
  const bad: [string, Parameters<typeof newLabelRequirement>[1], string[], string][] = [
    ['a', 'in', [], "values set can't be empty"],
    ['a', 'notin', [], "values set can't be empty"],
    ['a', '=', [], 'requires one single value'],
    ['a', '!=', ['x', 'y'], 'requires one single value'],
    ['a', 'exists', ['x'], 'values set must be empty'],
    ['a', '!', ['x'], 'values set must be empty'],
    ['a', 'gt', ['1', '2'], 'exactly one value is required'],
    ['a', 'lt', ['x'], 'must be an integer'],
    ['a b', 'exists', [], 'invalid label key "a b"'],
    ['a', '=', ['b c'], 'invalid label value "b c"'],
  ];
  for (const [key, op, values, messagePart] of bad) {
    assert.throws(
      () => newLabelRequirement(key, op, values),
      (err: unknown) => err instanceof SelectorParseError && err.message.includes(messagePart),
      `${key} ${op} ${JSON.stringify(values)}`
    );
  }
});

test('labelSelectorFromLabelSelectorObject converts metav1.LabelSelector', () => {
  const cases: [
    sel: LabelSelectorObject | null | undefined,
    canonical: string,
    matching: Record<string, string>[],
    notMatching: (Record<string, string> | undefined)[],
  ][] = [
    [null, '', [], [{}, { a: 'b' }, undefined]],
    [undefined, '', [], [{}, { a: 'b' }]],
    [{}, '', [{}, { a: 'b' }], []],
    [{ matchLabels: {}, matchExpressions: [] }, '', [{}], []],
    [
      { matchLabels: { app: 'web', tier: 'fe' } },
      'app=web,tier=fe',
      [{ app: 'web', tier: 'fe', x: 'y' }],
      [{ app: 'web' }, {}],
    ],
    [
      {
        matchLabels: { app: 'web' },
        matchExpressions: [
          { key: 'env', operator: 'In', values: ['prod', 'staging'] },
          { key: 'track', operator: 'NotIn', values: ['canary'] },
          { key: 'owner', operator: 'Exists' },
          { key: 'legacy', operator: 'DoesNotExist', values: null },
        ],
      },
      'app=web,env in (prod,staging),!legacy,owner,track notin (canary)',
      [
        { app: 'web', env: 'prod', owner: 'me' },
        { app: 'web', env: 'staging', owner: '', track: 'stable' },
      ],
      [
        { app: 'web', env: 'prod' },
        { app: 'web', env: 'dev', owner: 'me' },
        { app: 'web', env: 'prod', owner: 'me', track: 'canary' },
        { app: 'web', env: 'prod', owner: 'me', legacy: 'true' },
      ],
    ],
  ];
  for (const [obj, canonical, matching, notMatching] of cases) {
    const sel = labelSelectorFromLabelSelectorObject(obj);
    assert.equal(sel.toString(), canonical);
    for (const labels of matching) {
      assert.equal(
        sel.matches(labels),
        true,
        `${JSON.stringify(obj)} should match ${JSON.stringify(labels)}`
      );
    }
    for (const labels of notMatching) {
      assert.equal(
        sel.matches(labels),
        false,
        `${JSON.stringify(obj)} should not match ${JSON.stringify(labels)}`
      );
    }
  }
});

test('labelSelectorFromLabelSelectorObject rejects invalid objects', () => {
  const cases: [sel: LabelSelectorObject, messagePart: string][] = [
    [{ matchLabels: { 'bad key': 'v' } }, 'matchLabels["bad key"]: invalid label key'],
    [{ matchLabels: { k: 'bad value' } }, 'matchLabels["k"]: invalid label value'],
    [
      { matchExpressions: [{ key: 'k', operator: 'In', values: [] }] },
      "matchExpressions[0]: for 'in', 'notin' operators",
    ],
    [{ matchExpressions: [{ key: 'k', operator: 'NotIn' }] }, "values set can't be empty"],
    [
      { matchExpressions: [{ key: 'k', operator: 'Exists', values: ['v'] }] },
      'values set must be empty',
    ],
    [
      {
        matchExpressions: [
          { key: 'k', operator: 'Exists' },
          { key: 'k', operator: 'Gt' as 'In', values: ['1'] },
        ],
      },
      'matchExpressions[1].operator: "Gt" is not a valid label selector operator',
    ],
  ];
  for (const [obj, messagePart] of cases) {
    assert.throws(
      () => labelSelectorFromLabelSelectorObject(obj),
      (err: unknown) => {
        assert.ok(err instanceof SelectorParseError);
        assert.ok(err.message.includes(messagePart), `${err.message} lacks ${messagePart}`);
        return true;
      }
    );
  }
});
