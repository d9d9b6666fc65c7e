import { test } from 'node:test';
import assert from 'node:assert/strict';
import { escapeFieldValue, FieldSelector, parseFieldSelector } from './field-selector.js';
import type { FieldRequirement } from './field-selector.js';
import { SelectorParseError } from './selector-parse-error.js';

test('parseFieldSelector parses valid selectors', () => {
  const cases: [input: string, requirements: FieldRequirement[], canonical: string][] = [
    ['', [], ''],
    [',', [], ''],
    [
      'metadata.name=foo',
      [{ field: 'metadata.name', operator: '=', value: 'foo' }],
      'metadata.name=foo',
    ],
    [
      'metadata.name==foo',
      [{ field: 'metadata.name', operator: '=', value: 'foo' }],
      'metadata.name=foo',
    ],
    [
      'status.phase!=Running',
      [{ field: 'status.phase', operator: '!=', value: 'Running' }],
      'status.phase!=Running',
    ],
    ['spec.nodeName=', [{ field: 'spec.nodeName', operator: '=', value: '' }], 'spec.nodeName='],
    ['spec.nodeName!=', [{ field: 'spec.nodeName', operator: '!=', value: '' }], 'spec.nodeName!='],
    [
      'status.phase=Running,metadata.namespace!=kube-system',
      [
        { field: 'metadata.namespace', operator: '!=', value: 'kube-system' },
        { field: 'status.phase', operator: '=', value: 'Running' },
      ],
      'metadata.namespace!=kube-system,status.phase=Running',
    ],
    [
      'a=b,,c=d',
      [
        { field: 'a', operator: '=', value: 'b' },
        { field: 'c', operator: '=', value: 'd' },
      ],
      'a=b,c=d',
    ],
    ['a=x\\,y', [{ field: 'a', operator: '=', value: 'x,y' }], 'a=x\\,y'],
    ['a=x\\=y', [{ field: 'a', operator: '=', value: 'x=y' }], 'a=x\\=y'],
    ['a=x\\\\y', [{ field: 'a', operator: '=', value: 'x\\y' }], 'a=x\\\\y'],
    ['a=\\,\\=\\\\', [{ field: 'a', operator: '=', value: ',=\\' }], 'a=\\,\\=\\\\'],
    [
      'a!=x\\,y,b=z',
      [
        { field: 'a', operator: '!=', value: 'x,y' },
        { field: 'b', operator: '=', value: 'z' },
      ],
      'a!=x\\,y,b=z',
    ],
    ['a=b c', [{ field: 'a', operator: '=', value: 'b c' }], 'a=b c'],
    ['a=ä', [{ field: 'a', operator: '=', value: 'ä' }], 'a=ä'],
    ['a!b=c', [{ field: 'a!b', operator: '=', value: 'c' }], 'a!b=c'],
  ];
  for (const [input, requirements, canonical] of cases) {
    const sel = parseFieldSelector(input);
    assert.deepEqual(sel.requirements, requirements, JSON.stringify(input));
    assert.equal(sel.toString(), canonical, JSON.stringify(input));
    assert.deepEqual(parseFieldSelector(sel.toString()).requirements, requirements, 'round trip');
  }
});

test('parseFieldSelector rejects invalid selectors', () => {
  const cases: [input: string, messagePart: string][] = [
    ['a', `can't understand "a"`],
    ['a=b,c', `can't understand "c"`],
    ['metadata.name', 'expected FIELD=VALUE, FIELD==VALUE or FIELD!=VALUE'],
    ['=b', 'empty field name'],
    ['!=b', 'empty field name'],
    ['a=b=c', "unescaped character '='"],
    ['a==b=c', "unescaped character '='"],
    ['a!==b', "unescaped character '='"],
    ['a=b\\', "invalid escape sequence '\\' at the end"],
    ['a=b\\n', "invalid escape sequence '\\n'"],
    ['a=\\x', "invalid escape sequence '\\x'"],
  ];
  for (const [input, messagePart] of cases) {
    assert.throws(
      () => parseFieldSelector(input),
      (err: unknown) => {
        assert.ok(err instanceof SelectorParseError, `${input}: not a SelectorParseError`);
        assert.equal(err.name, 'SelectorParseError');
        assert.equal(err.selector, input);
        assert.ok(
          err.message.includes(messagePart),
          `${JSON.stringify(input)}: ${JSON.stringify(err.message)} lacks ${JSON.stringify(messagePart)}`
        );
        return true;
      },
      `expected ${JSON.stringify(input)} to be rejected`
    );
  }
});

test('FieldSelector.matches treats a missing field as the empty string', () => {
  const pod: Record<string, string> = {
    'metadata.name': 'web-1',
    'metadata.namespace': 'default',
    'status.phase': 'Running',
    'spec.nodeName': '',
    x: 'a,b',
  };
  const get = (field: string): string | undefined => pod[field];
  const cases: [selector: string, matches: boolean][] = [
    ['', true],
    ['metadata.name=web-1', true],
    ['metadata.name==web-1', true],
    ['metadata.name=web-2', false],
    ['metadata.name!=web-2', true],
    ['metadata.name!=web-1', false],
    ['metadata.name=web-1,status.phase=Running', true],
    ['metadata.name=web-1,status.phase!=Running', false],
    ['spec.nodeName=', true],
    ['spec.nodeName!=', false],
    ['spec.missing=', true],
    ['spec.missing!=', false],
    ['spec.missing=x', false],
    ['spec.missing!=x', true],
    ['x=a\\,b', true],
    ['x=a', false],
  ];
  for (const [selector, expected] of cases) {
    assert.equal(parseFieldSelector(selector).matches(get), expected, selector);
  }
});

test('FieldSelector.requiresExactMatch, fields and empty', () => {
  const sel = parseFieldSelector(
    'spec.nodeName=n1,status.phase!=Failed,metadata.name==a\\,b,spec.nodeName!=n2'
  );
  assert.equal(sel.requiresExactMatch('spec.nodeName'), 'n1');
  assert.equal(sel.requiresExactMatch('metadata.name'), 'a,b');
  assert.equal(sel.requiresExactMatch('status.phase'), undefined);
  assert.equal(sel.requiresExactMatch('metadata.namespace'), undefined);
  assert.deepEqual(sel.fields(), ['metadata.name', 'spec.nodeName', 'status.phase']);
  assert.equal(sel.empty(), false);
  assert.equal(parseFieldSelector('').empty(), true);
  assert.equal(FieldSelector.everything().empty(), true);
  assert.deepEqual(FieldSelector.everything().fields(), []);
  assert.equal(
    FieldSelector.everything().matches(() => undefined),
    true
  );
});

test('escapeFieldValue escapes backslash, comma and equals', () => {
  assert.equal(escapeFieldValue('plain'), 'plain');
  assert.equal(escapeFieldValue('a,b=c\\d'), 'a\\,b\\=c\\\\d');
  const value = 'x=1,y=\\2';
  assert.equal(parseFieldSelector(`f=${escapeFieldValue(value)}`).requiresExactMatch('f'), value);
});
