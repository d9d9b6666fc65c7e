// The spec's "resourceVersion semantics for list" and "for get" tables, one test per cell.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StatusError } from '@orch/apimachinery/errors';
import { builtinResources } from '@orch/apimachinery/registry';
import { getConsistency, listConsistency, parseDryRun, parseListQuery } from './list-options.js';

const pods = builtinResources.find((d) => d.group === '' && d.resource === 'pods')!;
const consistencyOf = (query: string) =>
  listConsistency(parseListQuery(new URLSearchParams(query), pods));
const is400 = (e: unknown): boolean => e instanceof StatusError && e.code === 400;

type Want = ReturnType<typeof listConsistency> | 400;

// Rows: resourceVersionMatch | paging; columns: unset RV, RV=0, RV=other.
const listRows: { name: string; query: string; want: Want }[] = [
  {
    name: 'match unset, limit unset, RV unset: Most recent',
    query: '',
    want: { consistency: 'MOST_RECENT', limit: 0 },
  },
  {
    name: 'match unset, limit unset, RV=0: Any',
    query: 'resourceVersion=0',
    want: { consistency: 'ANY', limit: 0 },
  },
  {
    name: 'match unset, limit unset, RV=other: Not older than',
    query: 'resourceVersion=42',
    want: { consistency: 'NOT_OLDER_THAN', revision: 42, limit: 0 },
  },
  {
    name: 'match unset, limit=n, RV unset: Most recent',
    query: 'limit=5',
    want: { consistency: 'MOST_RECENT', limit: 5 },
  },
  {
    name: 'match unset, limit=n, RV=0: Any',
    query: 'limit=5&resourceVersion=0',
    want: { consistency: 'ANY', limit: 5 },
  },
  {
    name: 'match unset, limit=n, RV=other: Exact',
    query: 'limit=5&resourceVersion=42',
    want: { consistency: 'EXACT', revision: 42, limit: 5 },
  },
  {
    name: 'match unset, continue=token, RV unset: token version, exact',
    query: 'limit=5&continue=tok',
    want: { consistency: 'MOST_RECENT', continueToken: 'tok', limit: 5 },
  },
  {
    name: 'match unset, continue=token, RV=0: treated as token version, exact',
    query: 'limit=5&continue=tok&resourceVersion=0',
    want: { consistency: 'MOST_RECENT', continueToken: 'tok', limit: 5 },
  },
  {
    name: 'match unset, continue=token, RV=other: 400',
    query: 'limit=5&continue=tok&resourceVersion=42',
    want: 400,
  },
  { name: 'Exact, RV unset: invalid', query: 'resourceVersionMatch=Exact', want: 400 },
  {
    name: 'Exact, RV=0: invalid',
    query: 'resourceVersionMatch=Exact&resourceVersion=0',
    want: 400,
  },
  {
    name: 'Exact, RV=other: Exact',
    query: 'resourceVersionMatch=Exact&resourceVersion=42',
    want: { consistency: 'EXACT', revision: 42, limit: 0 },
  },
  {
    name: 'Exact, limit=n, RV=other: Exact',
    query: 'resourceVersionMatch=Exact&resourceVersion=42&limit=3',
    want: { consistency: 'EXACT', revision: 42, limit: 3 },
  },
  {
    name: 'NotOlderThan, RV unset: invalid',
    query: 'resourceVersionMatch=NotOlderThan',
    want: 400,
  },
  {
    name: 'NotOlderThan, RV=0: Any',
    query: 'resourceVersionMatch=NotOlderThan&resourceVersion=0',
    want: { consistency: 'ANY', limit: 0 },
  },
  {
    name: 'NotOlderThan, RV=other: Not older than',
    query: 'resourceVersionMatch=NotOlderThan&resourceVersion=42',
    want: { consistency: 'NOT_OLDER_THAN', revision: 42, limit: 0 },
  },
  {
    name: 'NotOlderThan, limit=n, RV=other: Not older than',
    query: 'resourceVersionMatch=NotOlderThan&resourceVersion=42&limit=3',
    want: { consistency: 'NOT_OLDER_THAN', revision: 42, limit: 3 },
  },
  {
    name: 'a match with a continue token: 400',
    query: 'resourceVersionMatch=Exact&resourceVersion=4&continue=tok',
    want: 400,
  },
  {
    name: 'an unknown match: 400',
    query: 'resourceVersionMatch=Newest&resourceVersion=4',
    want: 400,
  },
  {
    name: 'a resourceVersion that is not a revision: 400',
    query: 'resourceVersion=abc',
    want: 400,
  },
  {
    name: 'a negative limit lists everything (an int64, unchecked upstream)',
    query: 'limit=-1',
    want: { consistency: 'MOST_RECENT', limit: 0 },
  },
  { name: 'a limit that is not an integer: 400', query: 'limit=ten', want: 400 },
  {
    name: 'a repeated limit: the first wins',
    query: 'limit=3&limit=9',
    want: { consistency: 'MOST_RECENT', limit: 3 },
  },
];

for (const row of listRows) {
  test(`list consistency: ${row.name}`, () => {
    if (row.want === 400) assert.throws(() => consistencyOf(row.query), is400);
    else assert.deepEqual(consistencyOf(row.query), row.want);
  });
}

type GetWant = ReturnType<typeof getConsistency> | 400;

const getRows: { name: string; rv: string | undefined; want: GetWant }[] = [
  { name: 'RV unset: Most recent', rv: undefined, want: { consistency: 'MOST_RECENT' } },
  { name: 'RV empty: Most recent', rv: '', want: { consistency: 'MOST_RECENT' } },
  { name: 'RV=0: Any', rv: '0', want: { consistency: 'ANY' } },
  {
    name: 'RV=other: Not older than',
    rv: '17',
    want: { consistency: 'NOT_OLDER_THAN', revision: 17 },
  },
  { name: 'RV not a revision: 400', rv: 'x1', want: 400 },
];

for (const row of getRows) {
  test(`get consistency: ${row.name}`, () => {
    if (row.want === 400) assert.throws(() => getConsistency(row.rv), is400);
    else assert.deepEqual(getConsistency(row.rv), row.want);
  });
}

const dryRunRows: { name: string; query: string; want: boolean | 400 }[] = [
  { name: 'absent', query: '', want: false },
  { name: 'bare', query: 'dryRun', want: true },
  { name: 'All', query: 'dryRun=All', want: true },
  { name: 'anything else: 400', query: 'dryRun=Some', want: 400 },
  { name: 'repeated All', query: 'dryRun=All&dryRun=All', want: true },
  {
    name: 'repeated, one not All: 400 (every value counts)',
    query: 'dryRun=All&dryRun=x',
    want: 400,
  },
];

for (const row of dryRunRows) {
  test(`dryRun: ${row.name}`, () => {
    const q = new URLSearchParams(row.query);
    if (row.want === 400) assert.throws(() => parseDryRun(q), is400);
    else assert.equal(parseDryRun(q), row.want);
  });
}
