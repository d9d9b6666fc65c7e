// Query parameters as upstream reads them: one row per rule of k8s.io/apimachinery
// pkg/runtime/conversion.go (Convert_Slice_string_To_*), metav1's generated url.Values
// conversions and apiserver's isPrettyPrint.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StatusError } from '@orch/apimachinery/errors';
import { builtinResources } from '@orch/apimachinery/registry';
import { parseListQuery } from '../handlers/list-options.js';
import {
  isPrettyPrint,
  queryBool,
  queryInt64,
  queryOptionalBool,
  queryOptionalInt64,
  queryString,
  queryStrings,
} from './query-params.js';
import { requestInfoOf } from './request-info.js';

const q = (s: string) => new URLSearchParams(s);
const is400 = (e: unknown): boolean => e instanceof StatusError && e.code === 400;

const boolRows: { rule: string; query: string; want: boolean }[] = [
  { rule: 'Convert_Slice_string_To_bool: absent is false', query: '', want: false },
  { rule: 'Convert_Slice_string_To_bool: "true" is true', query: 'b=true', want: true },
  { rule: 'Convert_Slice_string_To_bool: "1" is true', query: 'b=1', want: true },
  { rule: 'Convert_Slice_string_To_bool: "0" is false', query: 'b=0', want: false },
  { rule: 'Convert_Slice_string_To_bool: "false" is false', query: 'b=false', want: false },
  {
    rule: 'Convert_Slice_string_To_bool: "False" is false (EqualFold)',
    query: 'b=False',
    want: false,
  },
  {
    rule: 'Convert_Slice_string_To_bool: "FALSE" is false (EqualFold)',
    query: 'b=FALSE',
    want: false,
  },
  { rule: 'Convert_Slice_string_To_bool: "True" is true', query: 'b=True', want: true },
  { rule: 'Convert_Slice_string_To_bool: the empty value is true', query: 'b=', want: true },
  { rule: 'Convert_Slice_string_To_bool: a bare name is true', query: 'b', want: true },
  { rule: 'Convert_Slice_string_To_bool: any other value is true', query: 'b=yes', want: true },
  {
    rule: 'Convert_Slice_string_To_bool: "no" is true (only 0/false are false)',
    query: 'b=no',
    want: true,
  },
  { rule: 'Convert_Slice_string_To_bool: repeated, the first wins', query: 'b=0&b=1', want: false },
  {
    rule: 'Convert_Slice_string_To_bool: repeated, the first wins (true)',
    query: 'b=1&b=0',
    want: true,
  },
];

for (const row of boolRows) {
  test(`bool: ${row.rule}`, () => assert.equal(queryBool(q(row.query), 'b'), row.want));
}

test('Convert_Slice_string_To_Pointer_bool: absent is unset, present reads as bool', () => {
  assert.equal(queryOptionalBool(q(''), 'b'), undefined);
  assert.equal(queryOptionalBool(q('b=false'), 'b'), false);
  assert.equal(queryOptionalBool(q('b'), 'b'), true);
});

const intRows: { rule: string; query: string; want: number | undefined | 400 }[] = [
  { rule: 'Convert_Slice_string_To_Pointer_int64: absent is unset', query: '', want: undefined },
  { rule: 'strconv.ParseInt: decimal', query: 'n=42', want: 42 },
  { rule: 'strconv.ParseInt: a sign is allowed', query: 'n=%2B7', want: 7 },
  { rule: 'strconv.ParseInt: negative', query: 'n=-3', want: -3 },
  { rule: 'strconv.ParseInt: leading zeros', query: 'n=007', want: 7 },
  { rule: 'strconv.ParseInt: the empty value is invalid syntax', query: 'n=', want: 400 },
  { rule: 'strconv.ParseInt: letters are invalid syntax', query: 'n=ten', want: 400 },
  { rule: 'strconv.ParseInt: a fraction is invalid syntax', query: 'n=1.5', want: 400 },
  { rule: 'strconv.ParseInt: hex is invalid in base 10', query: 'n=0x10', want: 400 },
  { rule: 'strconv.ParseInt: spaces are invalid', query: 'n=%201', want: 400 },
  {
    rule: 'strconv.ParseInt: past int64 is out of range',
    query: 'n=9223372036854775808',
    want: 400,
  },
  { rule: 'Convert_Slice_string_To_int64: repeated, the first wins', query: 'n=5&n=x', want: 5 },
];

for (const row of intRows) {
  test(`int64: ${row.rule}`, () => {
    if (row.want === 400) assert.throws(() => queryOptionalInt64(q(row.query), 'n'), is400);
    else assert.equal(queryOptionalInt64(q(row.query), 'n'), row.want);
  });
}

test("strconv.ParseInt errors carry Go's text in a 400", () => {
  assert.throws(
    () => queryInt64(q('n=abc'), 'n'),
    (e: unknown) =>
      is400(e) && (e as StatusError).message === 'strconv.ParseInt: parsing "abc": invalid syntax'
  );
  assert.equal(queryInt64(q(''), 'n'), 0, 'Convert_Slice_string_To_int64: absent is 0');
});

test('Convert_Slice_string_To_string: the first of repeated values; absent unset; empty kept', () => {
  assert.equal(queryString(q('s=a&s=b'), 's'), 'a');
  assert.equal(queryString(q(''), 's'), undefined);
  assert.equal(queryString(q('s='), 's'), '');
});

test('a []string option (dryRun) keeps every value in order', () => {
  assert.deepEqual(queryStrings(q('dryRun=All&dryRun=All'), 'dryRun'), ['All', 'All']);
});

const prettyRows: { rule: string; query: string; ua?: string; want: boolean }[] = [
  { rule: 'isPrettyPrint: pretty=true', query: 'pretty=true', want: true },
  { rule: 'isPrettyPrint: strconv.ParseBool "1"', query: 'pretty=1', want: true },
  { rule: 'isPrettyPrint: strconv.ParseBool "t"', query: 'pretty=t', want: true },
  { rule: 'isPrettyPrint: strconv.ParseBool "TRUE"', query: 'pretty=TRUE', want: true },
  { rule: 'isPrettyPrint: strconv.ParseBool "0"', query: 'pretty=0', want: false },
  { rule: 'isPrettyPrint: an unparsable value is false', query: 'pretty=yes', want: false },
  {
    rule: 'isPrettyPrint: absent, a client library agent: false',
    query: '',
    ua: 'OpenAPI-Generator/22.6.0/python',
    want: false,
  },
  { rule: 'isPrettyPrint: absent, curl: true', query: '', ua: 'curl/8.5.0', want: true },
  { rule: 'isPrettyPrint: absent, Wget: true', query: '', ua: 'Wget/1.21', want: true },
  {
    rule: 'isPrettyPrint: absent, a browser: true',
    query: '',
    ua: 'Mozilla/5.0 (X11)',
    want: true,
  },
  {
    rule: 'isPrettyPrint: pretty=false beats curl',
    query: 'pretty=false',
    ua: 'curl/8',
    want: false,
  },
  {
    rule: 'isPrettyPrint: empty pretty falls back to the agent',
    query: 'pretty=',
    ua: 'curl/8',
    want: true,
  },
];

for (const row of prettyRows) {
  test(`pretty: ${row.rule}`, () => assert.equal(isPrettyPrint(q(row.query), row.ua), row.want));
}

const pods = builtinResources.find((d) => d.group === '' && d.resource === 'pods')!;

const listRows: { rule: string; query: string; want: Record<string, unknown> }[] = [
  {
    rule: 'allowWatchBookmarks bare is true',
    query: 'allowWatchBookmarks',
    want: { allowWatchBookmarks: true },
  },
  {
    rule: 'allowWatchBookmarks=True is true',
    query: 'allowWatchBookmarks=True',
    want: { allowWatchBookmarks: true },
  },
  {
    rule: 'allowWatchBookmarks=0 is false',
    query: 'allowWatchBookmarks=0',
    want: { allowWatchBookmarks: false },
  },
  {
    rule: 'timeoutSeconds=0 is the server default (unset)',
    query: 'timeoutSeconds=0',
    want: { timeoutSeconds: undefined },
  },
  { rule: 'timeoutSeconds=+30 is 30', query: 'timeoutSeconds=%2B30', want: { timeoutSeconds: 30 } },
  {
    rule: 'labelSelector repeated: the first wins',
    query: 'labelSelector=a%3D1&labelSelector=b%3D2',
    want: { labelSelectorText: 'a=1' },
  },
  {
    rule: 'unknown parameters are ignored',
    query: 'frobnicate=1&pretty=true&orphanDependents=x',
    want: { limit: 0 },
  },
];

for (const row of listRows) {
  test(`ListOptions: ${row.rule}`, () => {
    const got: Record<string, unknown> = { ...parseListQuery(q(row.query), pods) };
    for (const [k, v] of Object.entries(row.want)) assert.deepEqual(got[k], v, k);
  });
}

test('ListOptions: timeoutSeconds that is not an integer is 400', () => {
  assert.throws(() => parseListQuery(q('timeoutSeconds=soon'), pods), is400);
});

const watchRows: { rule: string; query: string; verb: string }[] = [
  { rule: 'watch=true', query: 'watch=true', verb: 'watch' },
  { rule: 'watch=1', query: 'watch=1', verb: 'watch' },
  { rule: 'watch=True (not only lowercase)', query: 'watch=True', verb: 'watch' },
  { rule: 'bare watch', query: 'watch', verb: 'watch' },
  { rule: 'watch=false', query: 'watch=false', verb: 'list' },
  { rule: 'watch=0', query: 'watch=0', verb: 'list' },
  { rule: 'watch=FALSE', query: 'watch=FALSE', verb: 'list' },
];

for (const row of watchRows) {
  test(`request info: ${row.rule} makes a ${row.verb}`, () => {
    const info = requestInfoOf('GET', new URL(`https://x/api/v1/pods?${row.query}`));
    assert.equal(info.verb, row.verb);
  });
}

// The spec's "Query parameters" table, row by row, as the server reads them.
const specRows: { row: string; check: () => void }[] = [
  {
    row: 'watch (GET): `1` or true turns a get or list into a watch',
    check: () => {
      for (const v of ['1', 'true'])
        assert.equal(
          requestInfoOf('GET', new URL(`https://x/api/v1/pods?watch=${v}`)).verb,
          'watch'
        );
    },
  },
  {
    row: 'resourceVersion (get, list, watch): a string, the first when repeated',
    check: () =>
      assert.equal(queryString(q('resourceVersion=5&resourceVersion=6'), 'resourceVersion'), '5'),
  },
  {
    row: 'limit (list): an integer',
    check: () => {
      assert.equal(parseListQuery(q('limit=7'), pods).limit, 7);
      assert.throws(() => parseListQuery(q('limit=seven'), pods), is400);
    },
  },
  {
    row: 'continue (list): the token as given',
    check: () => assert.equal(parseListQuery(q('continue=abc%3D'), pods).continueToken, 'abc='),
  },
  {
    row: 'allowWatchBookmarks (watch): `true` requests BOOKMARK events',
    check: () =>
      assert.equal(parseListQuery(q('allowWatchBookmarks=true'), pods).allowWatchBookmarks, true),
  },
  {
    row: 'pretty (all): pretty=true indents',
    check: () => assert.equal(isPrettyPrint(q('dryRun&pretty=true'), undefined), true),
  },
];

for (const r of specRows) test(`spec Query parameters: ${r.row}`, r.check);
