// The decoders of untrusted bytes fuzzed directly (no server), fixed seeds, many cases each.
import { test } from 'node:test';
import { decoderProperties } from './decoder-fuzz.js';

const runs: Record<string, number> = {
  envelope: 20_000,
  envelopeRoundTrip: 200,
  decodeMessage: 20_000,
  duplicateScanner: 5_000,
  scannerText: 2_000,
};

for (const [name, check] of Object.entries(decoderProperties)) {
  const numRuns = runs[name] ?? 1000;
  test(`fuzz ${name}: ${numRuns} cases (seed 15)`, () => check({ seed: 15, numRuns }));
}
