// `make fuzz`: the fuzzing harness run long from a random seed, against a real suite, then on the
// decoders directly. Prints the seed, the answers by code and every failing case, shrunk.
//
//   FUZZ_SECONDS=600  how long in all (default 600; the decoders get a tenth)
//   FUZZ_SEED=n       start from this seed instead of a random one (to replay a run)
import { randomInt } from 'node:crypto';
import { startSuite } from '@orch/testing';
import { decoderProperties } from './decoder-fuzz.js';
import { ServerFuzzer, formatCodes, fuzzGatewayArgs } from './server-fuzz.js';
import type { FuzzFailure } from './server-fuzz.js';

const seconds = Number(process.env['FUZZ_SECONDS'] ?? 600);
const seed = process.env['FUZZ_SEED'] ? Number(process.env['FUZZ_SEED']) : randomInt(2 ** 31 - 1);
if (!Number.isFinite(seconds) || seconds <= 0 || !Number.isSafeInteger(seed)) {
  process.stderr.write('FUZZ_SECONDS must be a positive number and FUZZ_SEED an integer\n');
  process.exit(2);
}
const out = (line: string): boolean => process.stdout.write(`${line}\n`);

out(`fuzz: seed ${seed}, ${seconds} s (replay with FUZZ_SEED=${seed})`);
const failures: FuzzFailure[] = [];
const started = Date.now();
const serverMs = seconds * 900;

const suite = await startSuite({
  certificates: true,
  gatewayArgs: fuzzGatewayArgs,
});
const fuzzer = new ServerFuzzer(suite);
try {
  await fuzzer.setUp();
  // One fast-check run per seed: a failure ends it (shrunk), and the next seed goes on.
  for (let s = seed; Date.now() - started < serverMs && !fuzzer.down; s++) {
    const failure = await fuzzer.run({ seed: s, timeMs: serverMs - (Date.now() - started) });
    if (failure) {
      const first = failure.error.split('\n')[0] ?? '';
      // The same bug found again from another seed is reported once.
      if (!failures.some((f) => f.error.split('\n')[0] === first)) failures.push(failure);
      out(`  failure (seed ${s}): ${first}`);
    }
  }
} finally {
  await suite.stop();
}
const stats = fuzzer.stats;
const fives = [...stats.codes].filter(([c]) => c >= 500).reduce((n, [, k]) => n + k, 0);
out(`server: ${stats.cases} cases in ${Math.round((Date.now() - started) / 1000)} s`);
out(`  answers by code: ${formatCodes(stats.codes)}`);
out(`  5xx: ${fives}; objects stored: ${stats.stored} (all valid unless a failure says so)`);
out(`  gateway down: ${fuzzer.down ? 'yes' : 'no'}; sockets reset and sent again: ${stats.resets}`);

const decoderMs = Math.max(1000, seconds * 1000 - (Date.now() - started));
const names = Object.keys(decoderProperties);
let decoderFailures = 0;
for (const name of names) {
  const check = decoderProperties[name];
  const ms = Math.floor(decoderMs / names.length);
  try {
    check?.({ seed, numRuns: Number.MAX_SAFE_INTEGER, interruptAfterTimeLimit: ms });
    out(`decoder ${name}: ${ms} ms, no failure`);
  } catch (err) {
    decoderFailures++;
    failures.push({ seed, case: `decoder ${name}`, error: (err as Error).message });
    out(`decoder ${name}: failure`);
  }
}

const serverFailures = failures.length - decoderFailures;
out(`failures: ${failures.length} (server ${serverFailures}, decoders ${decoderFailures})`);
for (const f of failures) {
  out(`--- seed ${f.seed}: ${f.case}`);
  out(f.error);
}
process.exit(failures.length > 0 ? 1 : 0);
