import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  generateName,
  isDNS1123Label,
  isDNS1123Subdomain,
  isQualifiedName,
  isValidLabelValue,
  isValidPathSegmentName,
  totalAnnotationSizeLimitBytes,
  validateAnnotations,
  validateLabels,
  validateObjectName,
} from './name-validation.js';

const subdomainRegexMsg =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const labelRegexMsg =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const qualifiedNameRegexMsg =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const labelValueRegexMsg =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

test('isDNS1123Subdomain', () => {
  for (const ok of [
    'a',
    'ab',
    'abc',
    'a1',
    'a-1',
    'a--1--2--b',
    '0',
    '01',
    '1.a',
    'a.1',
    'a.b.c',
    'example.com',
    'a'.repeat(253),
    `${'a'.repeat(63)}.${'b'.repeat(63)}`,
  ]) {
    assert.deepEqual(isDNS1123Subdomain(ok), [], ok);
  }
  for (const bad of [
    '',
    'A',
    'ABC',
    'aBc',
    'A1',
    'a_1',
    'a..1',
    '.a',
    'a.',
    '-a',
    'a-',
    'a.-b',
    'a-.b',
    'a b',
    'a/b',
    'ä',
  ]) {
    assert.deepEqual(isDNS1123Subdomain(bad), [subdomainRegexMsg], bad);
  }
  assert.deepEqual(isDNS1123Subdomain('a'.repeat(254)), ['must be no more than 253 characters']);
  assert.deepEqual(isDNS1123Subdomain('A'.repeat(254)), [
    'must be no more than 253 characters',
    subdomainRegexMsg,
  ]);
});

test('isDNS1123Label', () => {
  for (const ok of ['a', 'ab', 'a1', 'a-1', 'a--1--2--b', '0', '01', 'a'.repeat(63)]) {
    assert.deepEqual(isDNS1123Label(ok), [], ok);
  }
  for (const bad of ['', 'A', 'a_1', '-a', 'a-', 'a b', 'a.-b']) {
    assert.deepEqual(isDNS1123Label(bad), [labelRegexMsg], bad);
  }
  assert.deepEqual(isDNS1123Label('a.b'), ['must not contain dots']);
  assert.deepEqual(isDNS1123Label('a'.repeat(64)), ['must be no more than 63 characters']);
});

test('isValidPathSegmentName', () => {
  assert.deepEqual(isValidPathSegmentName('Anything_goes-here.ok'), []);
  assert.deepEqual(isValidPathSegmentName('.'), ["may not be '.'"]);
  assert.deepEqual(isValidPathSegmentName('..'), ["may not be '..'"]);
  assert.deepEqual(isValidPathSegmentName('...'), []);
  assert.deepEqual(isValidPathSegmentName('a/b'), ["may not contain '/'"]);
  assert.deepEqual(isValidPathSegmentName('a%b'), ["may not contain '%'"]);
  assert.deepEqual(isValidPathSegmentName('/%'), ["may not contain '/'", "may not contain '%'"]);
});

test('isQualifiedName and isValidLabelValue', () => {
  for (const ok of [
    'simple',
    'now-with-dashes',
    '1-starts-with-num',
    '1234',
    'simple/simple',
    'now-with-dashes/simple',
    'now-with-dashes/now-with-dashes',
    'now.with.dots/simple',
    'now-with.dashes-and.dots/simple',
    '1-num.2-num/3-num',
    '1234/5678',
    '1.2.3.4/5678',
    'Uppercase_Is_OK_123',
    'example.com/Uppercase_Is_OK_123',
    'a'.repeat(63),
    `${'a'.repeat(253)}/b`,
  ]) {
    assert.deepEqual(isQualifiedName(ok), [], ok);
  }
  assert.deepEqual(isQualifiedName('nospecialchars%^=@'), [`name part ${qualifiedNameRegexMsg}`]);
  assert.deepEqual(isQualifiedName('cantendwithadash-'), [`name part ${qualifiedNameRegexMsg}`]);
  assert.deepEqual(isQualifiedName(''), [
    'name part must be non-empty',
    `name part ${qualifiedNameRegexMsg}`,
  ]);
  assert.deepEqual(isQualifiedName('/simple'), ['prefix part must be non-empty']);
  assert.deepEqual(isQualifiedName('Upper.Case/simple'), [`prefix part ${subdomainRegexMsg}`]);
  assert.deepEqual(isQualifiedName('simple/'), [
    'name part must be non-empty',
    `name part ${qualifiedNameRegexMsg}`,
  ]);
  assert.deepEqual(isQualifiedName('a'.repeat(64)), [
    'name part must be no more than 63 characters',
  ]);
  assert.deepEqual(isQualifiedName('a/b/c'), [
    `a qualified name ${qualifiedNameRegexMsg} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
  ]);

  for (const ok of [
    '',
    'simple',
    'now-with-dashes',
    '1-starts-with-num',
    'end-with-num-1',
    '1234',
    'Uppercase_Is_OK_123',
    'a.b',
    'a'.repeat(63),
  ]) {
    assert.deepEqual(isValidLabelValue(ok), [], ok);
  }
  for (const bad of [
    'nospecialchars%^=@',
    'Tama-nui-te-rā.is.Māori.sun',
    '\\backslashes\\are\\bad',
    '-starts-with-dash',
    'ends-with-dash-',
    '.starts.with.dot',
    'ends.with.dot.',
    'a b',
  ]) {
    assert.ok(isValidLabelValue(bad).includes(labelValueRegexMsg), bad);
  }
  assert.deepEqual(isValidLabelValue('a'.repeat(64)), ['must be no more than 63 characters']);
});

test('validateObjectName applies the resource rule', () => {
  const cases: [
    name: string,
    rule: 'subdomain' | 'label' | 'path-segment',
    prefix: boolean,
    errors: string[],
  ][] = [
    ['my-pod', 'subdomain', false, []],
    ['my.pod', 'subdomain', false, []],
    ['My-Pod', 'subdomain', false, [subdomainRegexMsg]],
    ['my-pod-', 'subdomain', false, [subdomainRegexMsg]],
    ['my-pod-', 'subdomain', true, []],
    ['-', 'subdomain', true, [subdomainRegexMsg]],
    ['my-ns', 'label', false, []],
    ['my.ns', 'label', false, ['must not contain dots']],
    ['my-ns-', 'label', true, []],
    ['my_ns', 'label', true, [labelRegexMsg]],
    ['system:admin', 'path-segment', false, []],
    ['.', 'path-segment', false, ["may not be '.'"]],
    ['..', 'path-segment', false, ["may not be '..'"]],
    ['..', 'path-segment', true, []],
    ['a/b', 'path-segment', true, ["may not contain '/'"]],
    ['a%2F', 'path-segment', false, ["may not contain '%'"]],
  ];
  for (const [name, rule, prefix, errors] of cases) {
    assert.deepEqual(
      validateObjectName(name, rule, { prefix }),
      errors,
      `${name} ${rule} prefix=${prefix}`
    );
  }
  assert.deepEqual(validateObjectName('ok', 'subdomain'), []);
});

test('generateName appends 5 random characters and keeps within 63', () => {
  const alphabet = /^[bcdfghjklmnpqrstvwxz2456789]{5}$/;
  const cases: [base: string, prefix: string][] = [
    ['', ''],
    ['web-', 'web-'],
    ['a'.repeat(58), 'a'.repeat(58)],
    ['a'.repeat(59), 'a'.repeat(58)],
    ['b'.repeat(200), 'b'.repeat(58)],
  ];
  for (const [base, prefix] of cases) {
    const name = generateName(base);
    assert.equal(name.length, prefix.length + 5);
    assert.ok(name.length <= 63);
    assert.ok(name.startsWith(prefix));
    assert.match(name.slice(prefix.length), alphabet);
  }
  const seen = new Set(Array.from({ length: 200 }, () => generateName('x-')));
  assert.ok(seen.size > 190, `expected distinct names, got ${seen.size} of 200`);
  assert.deepEqual(validateObjectName(generateName('my-deployment-'), 'label'), []);
});

test('validateLabels reports each bad key and value under metadata.labels', () => {
  assert.deepEqual(validateLabels(undefined), []);
  assert.deepEqual(validateLabels({}), []);
  assert.deepEqual(validateLabels({ app: 'web', 'example.com/tier': '', 'x.y/Z_1': 'V.1' }), []);
  assert.deepEqual(validateLabels({ 'bad key': 'ok', good: '-bad' }), [
    {
      type: 'FieldValueInvalid',
      field: 'metadata.labels',
      message: `name part ${qualifiedNameRegexMsg}`,
      value: 'bad key',
    },
    {
      type: 'FieldValueInvalid',
      field: 'metadata.labels',
      message: labelValueRegexMsg,
      value: '-bad',
    },
  ]);
  assert.deepEqual(validateLabels({ a: 'v'.repeat(64) }, 'spec.template.metadata.labels'), [
    {
      type: 'FieldValueInvalid',
      field: 'spec.template.metadata.labels',
      message: 'must be no more than 63 characters',
      value: 'v'.repeat(64),
    },
  ]);
});

test('validateAnnotations checks keys case-insensitively and the total size', () => {
  assert.deepEqual(validateAnnotations(undefined), []);
  assert.deepEqual(
    validateAnnotations({
      'Example.COM/Some-Key': 'any value at all, even with spaces: {"json": true}',
    }),
    []
  );
  assert.deepEqual(validateAnnotations({ 'bad key': 'x' }), [
    {
      type: 'FieldValueInvalid',
      field: 'metadata.annotations',
      message: `name part ${qualifiedNameRegexMsg}`,
      value: 'bad key',
    },
  ]);
  assert.equal(totalAnnotationSizeLimitBytes, 262144);
  assert.deepEqual(validateAnnotations({ a: 'x'.repeat(totalAnnotationSizeLimitBytes - 1) }), []);
  assert.deepEqual(validateAnnotations({ a: 'x'.repeat(totalAnnotationSizeLimitBytes) }), [
    {
      type: 'FieldValueTooLong',
      field: 'metadata.annotations',
      message: 'may not be more than 262144 bytes',
    },
  ]);
  // Size counts UTF-8 bytes, as Go's len does.
  assert.equal(validateAnnotations({ a: 'é'.repeat(totalAnnotationSizeLimitBytes / 2) }).length, 1);
});
