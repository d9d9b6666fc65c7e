import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Registry } from 'prom-client';
import { FeatureGate } from './feature-gate.js';
import type { FeatureSpec } from './feature-gate.js';
import { completeFeatureGates, registerFeatureMetrics } from './feature-gate-flags.js';
import { apiListChunking, consistentListFromCache, defaultFeatureGates } from './known-features.js';

// One gate of each life-cycle row of the spec ("API version and feature-gate life cycle").
const known: Record<string, FeatureSpec> = {
  AlphaOne: { default: false, preRelease: 'ALPHA' },
  AlphaTwo: { default: false, preRelease: 'ALPHA' },
  BetaOne: { default: true, preRelease: 'BETA' },
  BetaOff: { default: false, preRelease: 'BETA' },
  GaLocked: { default: true, preRelease: 'GA', lockToDefault: true },
  GaOpen: { default: true, preRelease: 'GA' },
  Old: { default: false, preRelease: 'DEPRECATED' },
};

describe('FeatureGate', () => {
  const rows: {
    name: string;
    flag: string;
    want?: Record<string, boolean>;
    warnings?: string[];
    error?: string;
  }[] = [
    {
      name: 'life cycle: alpha gates are off, beta gates on by default',
      flag: '',
      want: { AlphaOne: false, BetaOne: true, BetaOff: false, GaLocked: true, Old: false },
      warnings: [],
    },
    {
      name: 'A=true,B=false with spaces and empty pieces',
      flag: ' AlphaOne=true , BetaOne=false,,',
      want: { AlphaOne: true, AlphaTwo: false, BetaOne: false },
      warnings: [],
    },
    {
      name: 'Go bool spellings',
      flag: 'AlphaOne=1,BetaOne=F',
      want: { AlphaOne: true, BetaOne: false },
    },
    {
      name: 'AllAlpha sets every alpha gate not named on its own',
      flag: 'AllAlpha=true,AlphaTwo=false',
      want: { AlphaOne: true, AlphaTwo: false, BetaOne: true },
    },
    {
      name: 'AllBeta=false turns the betas off',
      flag: 'AllBeta=false',
      want: { BetaOne: false, BetaOff: false, AlphaOne: false },
    },
    {
      name: 'unknown gate stops the start',
      flag: 'AlphaOne=true,Nope=true',
      error: 'unrecognized feature gate: Nope',
    },
    {
      name: 'a value that is not a bool',
      flag: 'AlphaOne=yes',
      error: 'invalid value of AlphaOne=yes, err: strconv.ParseBool: parsing "yes": invalid syntax',
    },
    { name: 'a missing value', flag: 'AlphaOne', error: 'missing bool value for AlphaOne' },
    {
      name: 'life cycle: disabling a GA gate locked to its default is refused',
      flag: 'GaLocked=false',
      error: 'cannot set feature gate GaLocked to false, feature is locked to true',
    },
    {
      name: 'a locked GA gate set to its default warns',
      flag: 'GaLocked=true',
      want: { GaLocked: true },
      warnings: ['Setting GA feature gate GaLocked=true. It will be removed in a future release.'],
    },
    {
      name: 'a GA gate not locked can still be disabled, with the warning',
      flag: 'GaOpen=false',
      want: { GaOpen: false },
      warnings: ['Setting GA feature gate GaOpen=false. It will be removed in a future release.'],
    },
    {
      name: 'life cycle: a deprecated gate warns when used',
      flag: 'Old=true',
      want: { Old: true },
      warnings: [
        'Setting deprecated feature gate Old=true. It will be removed in a future release.',
      ],
    },
  ];
  for (const r of rows) {
    it(r.name, () => {
      const gate = new FeatureGate(known);
      if (r.error) {
        assert.throws(() => gate.set(r.flag), { message: r.error });
        // Nothing of a refused flag is applied.
        assert.equal(gate.enabled('AlphaOne'), false);
        return;
      }
      const warnings = gate.set(r.flag);
      for (const [k, v] of Object.entries(r.want ?? {})) assert.equal(gate.enabled(k), v, k);
      if (r.warnings) assert.deepEqual(warnings, r.warnings);
    });
  }

  it('asking for an unregistered gate is an error', () => {
    assert.throws(() => new FeatureGate(known).enabled('Nope'), /not registered/);
  });

  it('registering a name twice with another spec is refused', () => {
    const gate = new FeatureGate(known);
    assert.throws(
      () => gate.add({ AlphaOne: { default: true, preRelease: 'BETA' } }),
      /different spec/
    );
    assert.throws(() => gate.add({ AllAlpha: { default: true, preRelease: 'BETA' } }), /reserved/);
  });

  it('help lists AllAlpha, AllBeta and the settable gates', () => {
    const lines = new FeatureGate(known).knownFeatures();
    assert.ok(lines.includes('AllAlpha=true|false (ALPHA - default=false)'));
    assert.ok(lines.includes('BetaOne=true|false (BETA - default=true)'));
    assert.ok(!lines.some((l) => l.startsWith('GaLocked=')));
  });
});

describe('completeFeatureGates and kubernetes_feature_enabled', () => {
  it('names the flag in the problem', () => {
    assert.deepEqual(completeFeatureGates('Bogus=true').errors, [
      '--feature-gates: unrecognized feature gate: Bogus',
    ]);
  });

  it('APIListChunking is known, GA and locked to true as upstream 1.32: true warns, false is refused', () => {
    const on = completeFeatureGates(`${apiListChunking}=true`);
    assert.deepEqual(on.errors, []);
    assert.equal(on.gate.enabled(apiListChunking), true);
    assert.deepEqual(on.warnings, [
      'Setting GA feature gate APIListChunking=true. It will be removed in a future release.',
    ]);
    assert.deepEqual(completeFeatureGates(`${apiListChunking}=false`).errors, [
      '--feature-gates: cannot set feature gate APIListChunking to false, feature is locked to true',
    ]);
  });

  it('the gauge has one series per known gate, GA with stage ""', async () => {
    const { gate, errors } = completeFeatureGates(`${consistentListFromCache}=false`);
    assert.deepEqual(errors, []);
    const registry = new Registry();
    registerFeatureMetrics(registry, gate);
    const text = await registry.metrics();
    assert.match(
      text,
      /kubernetes_feature_enabled\{name="ConsistentListFromCache",stage="BETA"\} 0/
    );
    assert.match(text, /kubernetes_feature_enabled\{name="WatchBookmark",stage=""\} 1/);
    const series = text.split('\n').filter((l) => l.startsWith('kubernetes_feature_enabled{'));
    assert.equal(series.length, Object.keys(defaultFeatureGates).length);
  });
});
