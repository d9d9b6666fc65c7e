// computeConcurrencyAllocation's properties (upstream checks them on random problems, as here):
// the sum is the required one, every allocation within its bounds, and those strictly inside
// their bounds share one proportion of their targets.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { computeConcurrencyAllocation, currentLimits } from './concurrency.js';

test('computeConcurrencyAllocation on random problems', () => {
  let seed = 1234567890;
  const rand = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (let n = 0; n < 2000; n++) {
    const items = Array.from({ length: 1 + Math.floor(rand() * 8) }, () => {
      const x = Math.max(0, rand() * 5 - 1);
      return { lowerBound: x, target: x + 2 * rand(), upperBound: x + 3 * rand() };
    });
    const low = items.reduce((s, i) => s + i.lowerBound, 0);
    const high = items.reduce((s, i) => s + i.upperBound, 0);
    const required = Math.round(low + (high - low) * rand());
    const allocs = computeConcurrencyAllocation(required, items);
    const sum = allocs.reduce((s, a) => s + a, 0);
    if (required >= low && required <= high)
      assert.ok(Math.abs(sum - required) < 1e-6, `sum ${sum} vs ${required}`);
    const props = new Set<string>();
    allocs.forEach((a, k) => {
      const i = items[k]!;
      assert.ok(a >= i.lowerBound - 1e-9 && a <= i.upperBound + 1e-9);
      if (a > i.lowerBound + 1e-6 && a < i.upperBound - 1e-6 && i.target > 0)
        props.add((a / i.target).toFixed(4));
    });
    assert.ok(props.size <= 1, `one fair proportion: ${[...props]}`);
  }
});

test('an idle level lends its lendable seats to a busy one', () => {
  const limits = currentLimits(100, [
    {
      name: 'busy',
      limits: { nominalCL: 50, minCL: 25, maxCL: 100 },
      demand: { highWatermark: 100, smoothed: 100 },
    },
    {
      name: 'idle',
      limits: { nominalCL: 50, minCL: 10, maxCL: 100 },
      demand: { highWatermark: 0, smoothed: 0 },
    },
  ]);
  assert.equal(limits.get('idle'), 10);
  assert.equal(limits.get('busy'), 90);
});
