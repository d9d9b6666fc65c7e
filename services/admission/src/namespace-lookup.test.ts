// lookupNamespace: a namespace the informer shows only after a few reads is found; one that
// never shows up is undefined after the tries; an aborted call stops asking.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ApiObject } from '@orch/apimachinery/meta';
import type { Listers } from './interfaces.js';
import { lookupNamespace } from './namespace-lookup.js';
import { namespace } from './plugin-test-kit.js';

/** Listers whose namespaces view shows `ns` from the `after`-th read on; counts the reads. */
function lagging(after: number): { listers: Listers; reads: () => number } {
  let reads = 0;
  const ns = namespace('late');
  const listers: Listers = {
    namespaces: {
      list: () => [],
      get: (_n: string, name: string): ApiObject | undefined =>
        ++reads >= after && name === 'late' ? ns : undefined,
    },
    forResource: () => Promise.reject(new Error('not used')),
  };
  return { listers, reads: () => reads };
}

test('lookupNamespace: a namespace the informer has not seen yet is asked for again', async () => {
  const { listers, reads } = lagging(3);
  const ns = await lookupNamespace(listers, 'late', undefined, { intervalMs: 1 });
  assert.equal(ns?.metadata.name, 'late');
  assert.equal(reads(), 3);
});

test('lookupNamespace: a namespace that never shows up is undefined after the tries', async () => {
  const { listers, reads } = lagging(Infinity);
  assert.equal(
    await lookupNamespace(listers, 'late', undefined, { attempts: 4, intervalMs: 1 }),
    undefined
  );
  assert.equal(reads(), 4);
});

test('lookupNamespace: an aborted call stops asking', async () => {
  const { listers, reads } = lagging(Infinity);
  const ac = new AbortController();
  ac.abort();
  assert.equal(
    await lookupNamespace(listers, 'late', ac.signal, { attempts: 10, intervalMs: 1 }),
    undefined
  );
  assert.equal(reads(), 1);
});
