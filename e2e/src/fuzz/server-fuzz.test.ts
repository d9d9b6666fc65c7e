// The bounded pass of the fuzzing harness, part of `make test`: a fixed seed and 2,000 generated
// writes through a real suite (about 2,000 cases, meant to take under a minute; about 55 s on a
// busy two-core machine). `make fuzz` runs the same harness long, from a random seed;
// FUZZ_RUNS=<n> runs more or fewer of this one.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startSuite } from '@orch/testing';
import type { Suite } from '@orch/testing';
import { ServerFuzzer, formatCodes, fuzzGatewayArgs } from './server-fuzz.js';

const seed = 15;
const numRuns = Number(process.env['FUZZ_RUNS'] ?? 2000);
let suite: Suite;

before(async () => {
  suite = await startSuite({
    certificates: true,
    gatewayArgs: fuzzGatewayArgs,
  });
});

after(async () => {
  await suite.stop();
});

const title = `fuzz: ${numRuns} writes (seed ${seed}): 4xx Status or 2xx, nothing invalid stored`;

test(title, async () => {
  const fuzzer = new ServerFuzzer(suite);
  await fuzzer.setUp();
  const failure = await fuzzer.run({ seed, numRuns });
  const { cases, codes } = fuzzer.stats;
  process.stdout.write(`# fuzz seed ${seed}: ${cases} cases; ${formatCodes(codes)}\n`);
  assert.equal(failure, undefined, failure && `${failure.error}\n  case: ${failure.case}`);
  assert.equal([...fuzzer.stats.codes.keys()].filter((c) => c >= 500).length, 0);
  assert.ok((fuzzer.stats.codes.get(201) ?? 0) > 0, 'valid creates were stored');
  assert.ok(
    [...fuzzer.stats.codes.keys()].some((c) => c >= 400),
    'invalid writes were refused'
  );
});
