// Seats by upstream's estimators: a LIST by its objects (100 per seat, 1 to 10), a write by its
// watchers (10 per final seat, held 5 ms, longer past 10 seats), the rest one seat.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { requestInfoOf } from '../request/request-info.js';
import { estimateWork } from './work-estimator.js';

const est = (method: string, path: string, objects: number | undefined, watchers = 0) => {
  const url = new URL(path, 'https://x');
  return estimateWork(requestInfoOf(method, url), url.searchParams, {
    objectCount: () => objects,
    watcherCount: () => watchers,
  });
};

test('work estimates', () => {
  const rows: [string, ReturnType<typeof est>, number, number, number][] = [
    ['a GET is one seat', est('GET', '/api/v1/namespaces/a/pods/p', 5000), 1, 0, 0],
    ['a LIST of 5,000 objects is capped at 10 seats', est('GET', '/api/v1/pods', 5000), 10, 0, 0],
    ['a LIST of 250 objects is 3 seats', est('GET', '/api/v1/pods', 250), 3, 0, 0],
    ['a LIST of none is 1 seat', est('GET', '/api/v1/pods', 0), 1, 0, 0],
    ['a LIST of an unknown count is the most', est('GET', '/api/v1/pods', undefined), 10, 0, 0],
    ['a limited LIST counts twice its page', est('GET', '/api/v1/pods?limit=100', 5000), 2, 0, 0],
    [
      'a selective LIST walks everything',
      est('GET', '/api/v1/pods?limit=100&labelSelector=a%3Db', 5000),
      10,
      0,
      0,
    ],
    [
      'a create without watchers is one seat',
      est('POST', '/api/v1/namespaces/a/pods', 5000, 0),
      1,
      0,
      0,
    ],
    [
      'a create with 25 watchers holds 3 final seats',
      est('POST', '/api/v1/namespaces/a/pods', 5000, 25),
      1,
      3,
      5,
    ],
    [
      'a create with 200 watchers: 10 seats for twice as long',
      est('POST', '/api/v1/namespaces/a/pods', 5000, 200),
      1,
      10,
      10,
    ],
    ['a non-resource request is one seat', est('GET', '/healthz', 5000), 1, 0, 0],
  ];
  for (const [name, w, initial, final, latency] of rows)
    assert.deepEqual(
      [w.initialSeats, w.finalSeats, w.additionalLatencyMs],
      [initial, final, latency],
      name
    );
});
