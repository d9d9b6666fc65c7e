// JSON as Go's json.Encoder writes it (`<`, `>`, `&`, U+2028, U+2029 escaped inside strings),
// and the cache's objects keeping their bytes: encoded once per object (the same Buffer for
// every list and event that writes it), a new object (an update replaces the cached object,
// never changes it) getting bytes of its own.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cachedJson, goJson, goJsonBytes } from './cached-json.js';

test('goJson and goJsonBytes escape as json.Encoder; bytes with nothing to escape are kept', () => {
  const text = JSON.stringify({ a: '<b>&</b>', s: '\u2028\u2029', é: 'ü' });
  const go = '{"a":"\\u003cb\\u003e\\u0026\\u003c/b\\u003e","s":"\\u2028\\u2029","é":"ü"}';
  assert.equal(goJson(text), go);
  assert.equal(goJsonBytes(Buffer.from(text)).toString('utf8'), go);
  const plain = Buffer.from('{"a":"ü€"}'); // E2 82 AC: a lead byte E2 with nothing to escape
  assert.equal(goJsonBytes(plain), plain);
});

test('cachedJson: goJson(JSON.stringify) as UTF-8, encoded once per object', () => {
  const obj = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'é' }, data: { a: '<&>' } };
  const first = cachedJson(obj);
  assert.equal(first.toString('utf8'), goJson(JSON.stringify(obj)));
  assert.ok(first.toString('utf8').includes('"a":"\\u003c\\u0026\\u003e"'));
  assert.equal(cachedJson(obj), first, 'the same bytes, not encoded again');
  const next = { ...obj, data: { a: 'c' } };
  assert.equal(cachedJson(next).toString('utf8'), JSON.stringify(next));
  assert.notEqual(cachedJson(next), first);
});
