// The decoding depth limit's two measures, as table tests: the JSON text scan run before parsing
// and the nesting of a parsed value (YAML, binary, patch results).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  jsonTextDepth,
  maxDecodingDepth,
  maxYamlTextDepth,
  nestingDepth,
  parseBodyStrict,
  yamlTextDepth,
} from './decode.js';

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

// The YAML syntax tree's depth: the document, then one per collection (and the scalar).
const yamlRows: [name: string, text: string, depth: number][] = [
  ['a scalar document', 'x', 2],
  ['a block map', 'a: 1', 3],
  ['block maps and a sequence', 'a:\n  b:\n    - c', 5],
  ['brackets in a single-quoted scalar do not count', "a: '[[[{{{'", 3],
  ['brackets in a double-quoted scalar do not count', 'a: "[[["', 3],
  ['brackets in a comment do not count', '# [[[[\na: 1', 3],
  ['brackets in a block scalar do not count', 'a: |\n  [[[[\n', 3],
  ['counting stops past the limit', '['.repeat(100_000), 301],
];

for (const [name, text, depth] of yamlRows) {
  test(`yamlTextDepth: ${name}`, () => assert.equal(yamlTextDepth(text, 300), depth));
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

test('parseBodyStrict: YAML nested past the limit is 400 before the composer recurses, block or flow', () => {
  const flow = '['.repeat(100_000) + ']'.repeat(100_000);
  const block = Array.from({ length: 2_000 }, (_, i) => `${' '.repeat(i)}k:`).join('\n');
  const compact = '- '.repeat(100_000) + 'x';
  for (const text of [flow, `a: ${flow}`, block, compact]) {
    assert.ok(yamlTextDepth(text, maxYamlTextDepth) > maxYamlTextDepth);
    assert.throws(
      () => parseBodyStrict(Buffer.from(text), 'application/yaml'),
      (err: unknown) => {
        const s = (err as { status?: { code: number; message: string } }).status;
        return s?.code === 400 && s.message.includes(`exceeded max depth of ${maxDecodingDepth}`);
      }
    );
  }
  // At the limit, block style: parsed.
  const atLimit = Array.from({ length: maxDecodingDepth }, (_, i) => `${' '.repeat(i)}k:`);
  const value = parseBodyStrict(Buffer.from(`${atLimit.join('\n')} 1`), 'application/yaml');
  assert.equal(nestingDepth(value.value), maxDecodingDepth);
});
