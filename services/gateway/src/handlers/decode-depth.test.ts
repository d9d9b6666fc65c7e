// The decoding depth limit's two measures, as table tests: the JSON text scan run before parsing
// and the nesting of a parsed value (YAML, binary, patch results).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { jsonTextDepth, maxDecodingDepth, nestingDepth, parseBodyStrict } from './decode.js';

const textRows: [name: string, text: string, depth: number][] = [
  ['scalar', '1', 0],
  ['empty object', '{}', 1],
  ['object in list', '[{"a":[1]}]', 3],
  ['brackets inside strings do not count', '{"a":"[[[{{{"}', 1],
  ['escaped quote keeps the string open', '{"a":"\\"[[["}', 1],
  ['siblings do not add up', '[[],[],[[]]]', 3],
];

for (const [name, text, depth] of textRows) {
  test(`jsonTextDepth: ${name}`, () => assert.equal(jsonTextDepth(text), depth));
}

const valueRows: [name: string, value: unknown, depth: number][] = [
  ['scalar', 'x', 0],
  ['null', null, 0],
  ['object', { a: 1 }, 1],
  ['nested', { a: [{ b: {} }] }, 4],
];

for (const [name, value, depth] of valueRows) {
  test(`nestingDepth: ${name}`, () => assert.equal(nestingDepth(value), depth));
}

test('parseBodyStrict: at the limit is parsed, one deeper is 400 before any parser runs', () => {
  const nested = (d: number): string => '['.repeat(d) + ']'.repeat(d);
  const atLimit = parseBodyStrict(Buffer.from(nested(maxDecodingDepth)), 'application/json');
  assert.equal(nestingDepth(atLimit.value), maxDecodingDepth);
  for (const d of [maxDecodingDepth + 1, 100_000]) {
    assert.throws(
      () => parseBodyStrict(Buffer.from(nested(d)), 'application/json'),
      (err: unknown) => {
        const s = (err as { status?: { code: number; message: string } }).status;
        return s?.code === 400 && s.message.includes(`exceeded max depth of ${maxDecodingDepth}`);
      }
    );
  }
  const yaml = `a: ${nested(maxDecodingDepth)}`;
  assert.throws(() => parseBodyStrict(Buffer.from(yaml), 'application/yaml'), /exceeded max depth/);
});
