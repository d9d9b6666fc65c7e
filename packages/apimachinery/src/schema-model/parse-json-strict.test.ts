import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseJsonStrict } from './parse-json-strict.js';

test('duplicate keys are reported with their paths, the last value wins', () => {
  const r = parseJsonStrict(
    '{"metadata":{"name":"a","name":"b"},"spec":{"containers":[{"name":"c","image":"x","image":"y"},{"name":"d"}]},"spec2":[[{"a":1,"a":2}]]}'
  );
  assert.deepEqual(r.duplicates, ['metadata.name', 'spec.containers[0].image', 'spec2[0][0].a']);
  assert.equal((r.value as any).metadata.name, 'b');
});

test('no duplicates: an empty list; same key in sibling objects is no duplicate', () => {
  assert.deepEqual(
    parseJsonStrict('{"a":{"x":1},"b":{"x":2},"c":[{"x":1},{"x":2}],"d":"{\\"x\\":1,\\"x\\":2}"}')
      .duplicates,
    []
  );
  assert.deepEqual(parseJsonStrict('[1,2,3]').duplicates, []);
});

test('invalid JSON throws', () => {
  assert.throws(() => parseJsonStrict('{"a":1,}'), SyntaxError);
  assert.throws(() => parseJsonStrict('{"a":1 // c\n}'), SyntaxError);
});

test('regression (fuzz): a duplicate key with dots or slashes is written [key], one field', () => {
  const labels = '{"example.com/a":"1","example.com/a":"2"}';
  const r = parseJsonStrict(`{"metadata":{"labels":${labels}},"b.c":1,"b.c":2}`);
  assert.deepEqual(r.duplicates, ['metadata.labels[example.com/a]', '[b.c]']);
});

test('keys spelled with escapes are the same key; escaped quotes and brackets in strings are text', () => {
  const r = parseJsonStrict(
    '{"a\\"{[":"x]}\\\\","b":[1,{"k":"\\"","\\u006b":2}],"a\\"{[":{"\\\\":1,"\\\\":2}}'
  );
  assert.deepEqual(r.duplicates, ['b[1].k', '[a"{[]', '[a"{[][\\]']);
});

test('an index counts the elements before it, whatever they hold', () => {
  const r = parseJsonStrict('{"l":[[],{},"a,b",[1,2],{"x":1,"x":2}],"m":{}," ":{}," ":[]}');
  assert.deepEqual(r.duplicates, ['l[4].x', '[ ]']);
});
