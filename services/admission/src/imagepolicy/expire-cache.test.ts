// ExpireCache: expiry by the given clock, eviction of the least recently used entry.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { ExpireCache } from './expire-cache.js';

describe('ExpireCache', () => {
  it('an entry lives for its ttl and is gone after', () => {
    let now = 1000;
    const c = new ExpireCache<string>(4, () => now);
    c.add('a', 'A', 100);
    now = 1100;
    assert.equal(c.get('a'), 'A');
    now = 1101;
    assert.equal(c.get('a'), undefined);
    assert.equal(c.size, 0);
  });

  it('a ttl of 0 or less caches nothing and drops an older entry', () => {
    const c = new ExpireCache<string>(4);
    c.add('a', 'A', 60_000);
    c.add('a', 'B', 0);
    assert.equal(c.get('a'), undefined);
    c.add('b', 'B', -1);
    assert.equal(c.size, 0);
  });

  it('when full, the least recently used entry goes', () => {
    const c = new ExpireCache<number>(2);
    c.add('a', 1, 60_000);
    c.add('b', 2, 60_000);
    assert.equal(c.get('a'), 1);
    c.add('c', 3, 60_000);
    assert.deepEqual([c.get('a'), c.get('b'), c.get('c')], [1, undefined, 3]);
  });
});
