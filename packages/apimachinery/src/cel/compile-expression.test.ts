import { test } from 'node:test';
import assert from 'node:assert/strict';

import { compileExpression, fromCelValue, lazyMap, toCelValue } from './compile-expression.js';
import type { CelVariable } from './compile-expression.js';
import {
  CelCostError,
  CostBudget,
  PER_CALL_LIMIT,
  PER_CALL_LIMIT_MESSAGE,
  RUNTIME_BUDGET_MESSAGE,
} from './cost.js';

const vars: CelVariable[] = [
  { name: 'object', type: 'dyn' },
  { name: 'variables', type: 'map<string, dyn>' },
];

function run(expr: string, object: unknown = {}, budget?: CostBudget): unknown {
  const r = compileExpression(expr, vars);
  assert.equal(r.error, undefined, `compile ${expr}: ${r.error}`);
  return r.compiled!.evaluate({ object: toCelValue(object), variables: {} }, budget);
}

/** The cost units one evaluation of `expr` spends. */
function cost(expr: string, object: unknown = {}): number {
  const b = new CostBudget(Number.MAX_SAFE_INTEGER, 'unused');
  run(expr, object, b);
  return b.used;
}

test('macros: has, all, exists, exists_one, map, filter', () => {
  const o = { spec: { xs: [1, 2, 3] }, metadata: { labels: { a: 'b' } } };
  const rows: [string, unknown][] = [
    ['has(object.metadata.labels)', true],
    ['has(object.metadata.annotations)', false],
    ['object.spec.xs.all(x, x > 0)', true],
    ['object.spec.xs.exists(x, x > 2)', true],
    ['object.spec.xs.exists_one(x, x > 1)', false],
    ['object.spec.xs.map(x, x * 2)', [2n, 4n, 6n]],
    ['object.spec.xs.filter(x, x % 2 == 1)', [1n, 3n]],
  ];
  for (const [e, want] of rows) assert.deepEqual(run(e, o), want, e);
});

// CEL's has(e.f) takes any expression e (cel-js 8 took only fields from an identifier); Gateway
// API's HTTPRoute and GRPCRoute test has(self[0].matches).
test('has() on a field of an indexed element or another expression', () => {
  const o = { rules: [{ matches: [1] }, {}] };
  const rows: [string, boolean][] = [
    ['has(object.rules[0].matches)', true],
    ['has(object.rules[1].matches)', false],
    ['object.rules.size() > 1 && !has(object.rules[1].matches)', true],
    ["has({'a': {'b': 1}}.a.b)", true],
  ];
  for (const [e, want] of rows) assert.equal(run(e, o), want, e);
});

// cel-go reads regexes as RE2: Gateway API's GRPCRoute has `^(?i)...`, which a JavaScript
// RegExp refuses; matches, find and findAll read it as RE2 does.
test('regexes are RE2: inline flags, also after a leading ^; lookaround refused', () => {
  const rows: [string, unknown][] = [
    ["'Echo.Service'.matches('^(?i)[a-z_]+(\\\\.[a-z_]+)*$')", true],
    ["'ABC'.matches('(?i)^abc$')", true],
    ["'ABC'.matches('^abc$')", false],
    ["'xAbCx'.find('(?i)abc')", 'AbC'],
    ["'aAbB'.findAll('(?i)b')", ['b', 'B']],
  ];
  for (const [e, want] of rows) assert.deepEqual(run(e), want, e);
  assert.throws(() => run("'a'.matches('a(?=b)')"), /invalid or unsupported Perl syntax/);
});

test('Kubernetes list library: indexOf, lastIndexOf, min, max, sum, isSorted', () => {
  const rows: [string, unknown][] = [
    ['[1, 2, 2, 3].indexOf(2)', 1n],
    ['[1, 2, 2, 3].lastIndexOf(2)', 2n],
    ['[1, 2, 3].indexOf(9)', -1n],
    ['[3, 1, 2].min()', 1n],
    ['["b", "c", "a"].max()', 'c'],
    ['[1, 2, 3].sum()', 6n],
    ['[1.5, 2.5].sum()', 4],
    ['[1, 2, 3].isSorted()', true],
    ['[1, 3, 2].isSorted()', false],
    ['object.xs.sum() == 6', true],
  ];
  for (const [e, want] of rows) assert.deepEqual(run(e, { xs: [1, 2, 3] }), want, e);
  assert.throws(() => run('object.xs.min()', { xs: [] }), /min called on empty list/u);
});

test('Kubernetes regex library: find, findAll, matches', () => {
  const rows: [string, unknown][] = [
    ['"abc123def456".find("[0-9]+")', '123'],
    ['"abc".find("[0-9]+")', ''],
    ['"abc123def456".findAll("[0-9]+")', ['123', '456']],
    ['"a1b2c3".findAll("[0-9]", 2)', ['1', '2']],
    ['"abc".matches("^a.c$")', true],
  ];
  for (const [e, want] of rows) assert.deepEqual(run(e), want, e);
  assert.throws(() => run('"a".find("(")'), /invalid regex/u);
});

test('Kubernetes URL library: isURL, url and its accessors', () => {
  const rows: [string, unknown][] = [
    ['isURL("https://example.com:80/path?x=1")', true],
    ['isURL("/absolute-path")', true],
    ['isURL("relative")', false],
    ['isURL("")', false],
    ['url("https://example.com:80/path").getScheme()', 'https'],
    ['url("https://example.com:80/path").getHost()', 'example.com:80'],
    ['url("https://[::1]:80/").getHost()', '[::1]:80'],
    ['url("https://[::1]:80/").getHostname()', '::1'],
    ['url("https://example.com:80/").getPort()', '80'],
    ['url("https://example.com/").getPort()', ''],
    ['url("/path").getHost()', ''],
    ['url("https://example.com/a b").getEscapedPath()', '/a%20b'],
    ['url("https://example.com/?x=1&x=2&y=z").getQuery()', { x: ['1', '2'], y: ['z'] }],
  ];
  for (const [e, want] of rows) assert.deepEqual(run(e), want, e);
  assert.throws(() => run('url("relative")'), /URL parse error/u);
});

test('compile errors: undeclared references, syntax, overloads, result type', () => {
  const rows: [string, string[], RegExp][] = [
    ['undeclared == 1', [], /Unknown variable: undeclared/u],
    ['object.a ==', [], /compilation failed: ERROR: <input>:1:\d+:/u],
    ['"a" + 1', [], /no such overload: string \+ int/u],
    ['"a"', ['bool'], /must evaluate to bool, but evaluates to string/u],
    ['authorizer.allowed()', [], /Unknown variable: authorizer/u],
  ];
  for (const [e, types, want] of rows) {
    const r = compileExpression(e, vars, types);
    assert.match(r.error ?? '', want, e);
  }
});

test('JSON integers are CEL ints, other numbers doubles; back to JSON', () => {
  assert.equal(run('object.replicas + 1 == 4', { replicas: 3 }), true);
  assert.equal(run('object.ratio * 2.0 == 1.0', { ratio: 0.5 }), true);
  assert.deepEqual(fromCelValue(run('object', { a: [1, 2.5, 'x'] })), { a: [1, 2.5, 'x'] });
});

test('lazy variables are computed on first read, once', () => {
  let calls = 0;
  const r = compileExpression('variables.v + variables.v == 10', vars);
  const v = r.compiled!.evaluate({
    object: {},
    variables: lazyMap(new Map([['v', () => (calls++, 5n)]])),
  });
  assert.equal(v, true);
  assert.equal(calls, 1);
  const unread = compileExpression('true || variables.v == 1', vars);
  calls = 0;
  unread.compiled!.evaluate({
    object: {},
    variables: lazyMap(new Map([['v', () => (calls++, 1n)]])),
  });
  assert.equal(calls, 0);
});

// spec "Expression cost": comparison 1; list literal 40; regex about length(regex) ×
// length(input), as cel-go counts it: ⌈(1 + length(input)) × 0.1⌉ × ⌈length(regex) × 0.25⌉.
test('cost rule rows: comparison 1, list literal 40, regex ⌈(1 + input) × 0.1⌉ × ⌈regex × 0.25⌉ (cel-go)', () => {
  assert.equal(cost('1 == 1'), 1, 'comparison costs 1');
  assert.equal(cost('1 < 2'), 1, 'comparison costs 1');
  assert.equal(cost('[1, 2, 3]'), 40, 'list literal base cost 40');
  assert.equal(cost('[]'), 40, 'empty list literal base cost 40');
  assert.equal(cost('[1] == [1]'), 81, 'two list literals and a comparison');
  // 'abcdef' (6) matched against 'a.c' (3): ⌈0.7⌉ × ⌈0.75⌉ = 1.
  assert.equal(cost('"abcdef".matches("a.c")'), 1, 'regex ⌈7 × 0.1⌉ × ⌈3 × 0.25⌉');
  assert.equal(
    cost(`object.s.find("${'y'.repeat(40)}")`, { s: 'x'.repeat(99) }),
    2 + 10 * 10,
    'find: 2 selects + ⌈100 × 0.1⌉ × ⌈40 × 0.25⌉'
  );
  assert.equal(cost('object.a', { a: 1 }), 2, 'identifier and field selection 1 each');
});

test('a comprehension costs what its iterations evaluate', () => {
  const small = cost('object.xs.all(x, x > 0)', { xs: [1, 2] });
  const big = cost('object.xs.all(x, x > 0)', { xs: Array.from({ length: 200 }, () => 1) });
  assert.ok(big > small * 50, `${big} vs ${small}`);
});

test('per-call limit: an evaluation over PER_CALL_LIMIT halts with the cost error', () => {
  const object = { s: 'x'.repeat(19_999) };
  // ⌈20,000 × 0.1⌉ × ⌈2004 × 0.25⌉ = 2000 × 501 = 1,002,000 > 1,000,000.
  const e = `object.s.matches("${'x'.repeat(2004)}")`;
  assert.throws(
    () => run(e, object),
    (err: unknown) => {
      assert.ok(err instanceof CelCostError);
      assert.equal(err.message, PER_CALL_LIMIT_MESSAGE);
      return true;
    }
  );
  // Just under the limit passes: 2000 × 499 = 998,000.
  assert.equal(run(`object.s.matches("${'x'.repeat(1996)}")`, object), true);
  assert.ok(PER_CALL_LIMIT === 1_000_000);
});

test('the cost error is not swallowed by || or exists (errors there are otherwise absorbed)', () => {
  const object = { s: 'x'.repeat(19_999), xs: [1, 2] };
  const heavy = `object.s.matches("${'x'.repeat(2004)}")`;
  assert.throws(() => run(`${heavy} || true`, object), CelCostError);
  assert.throws(() => run(`object.xs.exists(x, ${heavy})`, object), CelCostError);
});

test('a shared budget spans evaluations and halts the one that passes it', () => {
  const budget = new CostBudget(100, RUNTIME_BUDGET_MESSAGE);
  const r = compileExpression('[1] == [1]', vars); // 81 each
  r.compiled!.evaluate({ object: {}, variables: {} }, budget);
  assert.equal(budget.used, 81);
  assert.throws(
    () => r.compiled!.evaluate({ object: {}, variables: {} }, budget),
    (err: unknown) => err instanceof CelCostError && err.message === RUNTIME_BUDGET_MESSAGE
  );
});

test('estimated cost: computed for literal sizes, refused over the limit, unknown for input data', () => {
  const hundred = `[${Array.from({ length: 100 }, () => '1').join(', ')}]`;
  const nested = `${hundred}.all(x, ${hundred}.all(y, ${hundred}.all(z, z == 1)))`;
  const r = compileExpression(nested, vars);
  assert.match(r.error ?? '', /estimated rule cost exceeds budget by factor of/u);
  const ok = compileExpression(`${hundred}.all(x, x == 1)`, vars);
  assert.equal(ok.error, undefined);
  assert.ok(ok.compiled!.estimatedCost! >= 100 && ok.compiled!.estimatedCost! < 1000);
  assert.equal(
    compileExpression('object.xs.all(x, x == 1)', vars).compiled!.estimatedCost,
    undefined
  );
  assert.equal(compileExpression('1 == 1', vars).compiled!.estimatedCost, 1);
});
