import { afterEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Counter, Registry } from 'prom-client';
import {
  resetShowHiddenMetrics,
  setShowHiddenMetrics,
  shouldHide,
  validateShowHiddenMetricsVersion,
  withStability,
} from './stability.js';

describe('metric stability', () => {
  afterEach(resetShowHiddenMetrics);

  it('help starts with the class, then the deprecation notice', () => {
    assert.equal(withStability({ help: 'x' }, { stabilityLevel: 'ALPHA' }).help, '[ALPHA] x');
    assert.equal(withStability({ help: 'x' }, { stabilityLevel: 'STABLE' }).help, '[STABLE] x');
    assert.equal(
      withStability({ help: 'x' }, { stabilityLevel: 'STABLE', deprecatedVersion: '1.31.0' }).help,
      '[STABLE] (Deprecated since 1.31.0) x'
    );
  });

  const hideRows: [string, string, boolean][] = [
    ['1.32.0', '1.32.0', false],
    ['1.31.0', '1.32.0', false],
    ['1.30.0', '1.32.0', false],
    ['1.29.0', '1.32.0', true], // current minor − 3
    ['1.20.0', '1.32.0', true],
    ['0.9.0', '1.32.0', true],
  ];
  for (const [deprecated, current, hidden] of hideRows) {
    it(`deprecated in ${deprecated} at ${current}: hidden ${hidden}`, () => {
      assert.equal(shouldHide(deprecated, current), hidden);
    });
  }

  const flagRows: [string, boolean][] = [
    ['', true],
    ['1.31', true],
    ['1.30', false],
    ['1.32', false],
    ['1.31.0', false],
    ['v1.31', false],
    ['x', false],
  ];
  for (const [value, ok] of flagRows) {
    it(`--show-hidden-metrics-for-version=${JSON.stringify(value)} accepted: ${ok}`, () => {
      const errors = validateShowHiddenMetricsVersion(value, '1.32.0');
      assert.deepEqual(
        errors,
        ok
          ? []
          : [
              "--show-hidden-metrics-for-version must be omitted or have the value '1.31'. Only the previous minor version is allowed.",
            ]
      );
    });
  }

  it('a hidden metric is not registered unless hidden metrics are shown', async () => {
    const make = (registry: Registry): Counter =>
      new Counter(
        withStability(
          { name: 'old_total', help: 'old', registers: [registry] },
          { stabilityLevel: 'ALPHA', deprecatedVersion: '1.29.0' }
        )
      );
    const hiddenRegistry = new Registry();
    make(hiddenRegistry).inc();
    assert.doesNotMatch(await hiddenRegistry.metrics(), /old_total/);
    setShowHiddenMetrics();
    const shown = new Registry();
    make(shown).inc();
    assert.match(
      await shown.metrics(),
      /# HELP old_total \[ALPHA\] \(Deprecated since 1\.29\.0\) old/
    );
  });
});
