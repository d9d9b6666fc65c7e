#!/usr/bin/env node
// The runner behind `make test`: every compiled test file (`dist/**/*.test.js`) under packages/,
// services/ and e2e/, in three tiers run one after the other by `node --test`, and at the end
// the count of tests (pass, fail) per tier. The exit code is 0 when every tier passed.
//
//   node scripts/test.mjs                        the three tiers: unit, integration, e2e
//   node scripts/test.mjs unit                   one tier (make test-unit, test-integration, test-e2e)
//   node scripts/test.mjs integration watch      files of the tier whose path holds `watch`
//   node scripts/test.mjs --unit                 the unit tier (the former flag)
//   node scripts/test.mjs --private-suites ...   no shared suite: sharedSuite() starts one per file
//                                                (as before the tiers; to compare, or to bisect)
//
// The tiers, decided per file:
//   e2e          files under e2e/: real kubectl, client-node and the Python client;
//   integration  files under packages/ and services/ whose compiled text names a harness
//                function that starts processes: startSuite, sharedSuite, startGateway,
//                startEtcd, startNats or spawnBackend (@orch/testing);
//   unit         the rest: no process, several files at a time.
// The rule is enforced: the runner sets ORCH_TEST_TIER to the tier, and in the unit tier those
// harness functions throw "a unit test may not start processes", so a file that reaches the
// harness in a way this reading does not see (a helper module) fails loudly.
//
// Shared suites: a file that calls `sharedSuite()` or `sharedSuite({ controllers: true })` (a
// literal, as read in its compiled text) runs on one suite the runner starts before the tier,
// the one without controllers or the one with them, each started only when a file of the run
// uses it and stopped at the end (also on failure or Ctrl-C). The runner passes each one's
// layout file (JSON: gateway URLs, kubeconfigs, PKI, ports) in ORCH_SHARED_SUITE and
// ORCH_SHARED_SUITE_CONTROLLERS; a file run alone (`node --test x.test.js`) gets a private one.
// Integration and e2e files run two at a time (as many as the machine has cores, at most
// four; ORCH_TEST_CONCURRENCY sets it, 1 for one at a time): a file mostly waits on its
// processes, so one file alone keeps two cores about 60% busy. Files on a shared suite may
// therefore run beside another file on the same suite: they use names of their own.
//
// Expects a build (`npx tsc --build`, or `make test` which builds first).
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { availableParallelism, constants, tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const tierNames = ['unit', 'integration', 'e2e'];
const harness = /\b(?:startSuite|sharedSuite|startGateway|startEtcd|startNats|spawnBackend)\b/;
const usesShared = /\bsharedSuite\(\s*\)/;
const usesSharedControllers = /\bsharedSuite\(\s*\{\s*controllers:\s*true\s*\}\s*\)/;

/** Integration and e2e files run at once (ORCH_TEST_CONCURRENCY overrides). */
const suiteConcurrency =
  Number(process.env.ORCH_TEST_CONCURRENCY) || Math.min(4, Math.max(2, availableParallelism()));

const argv = process.argv.slice(2);
const privateSuites = argv.includes('--private-suites');
const args = argv.filter((a) => a !== '--private-suites').map((a) => (a === '--unit' ? 'unit' : a));
const badFlags = args.filter((a) => a.startsWith('-'));
if (badFlags.length > 0) {
  process.stderr.write(
    `usage: node scripts/test.mjs [--private-suites] [unit|integration|e2e]... [path filter]...\nunknown flag: ${badFlags.join(' ')}\n`
  );
  process.exit(2);
}
const chosen = args.filter((a) => tierNames.includes(a));
const filters = args.filter((a) => !tierNames.includes(a));
const tiers = chosen.length > 0 ? tierNames.filter((t) => chosen.includes(t)) : tierNames;

const all = ['packages', 'services', 'e2e']
  .map((root) => join(repo, root))
  .filter((dir) => existsSync(dir))
  .flatMap((dir) => findTests(dir, false))
  .map((file) => relative(repo, file))
  .filter((file) => filters.length === 0 || filters.some((f) => file.includes(f)))
  .sort();
if (all.length === 0) {
  process.stderr.write(
    filters.length > 0
      ? `no compiled test file matches ${filters.join(' ')}\n`
      : 'no compiled tests found: build first (npx tsc --build, or make test)\n'
  );
  process.exit(1);
}
const byTier = new Map(tierNames.map((t) => [t, []]));
for (const file of all) byTier.get(tierOf(file)).push(file);

/** The shared suites started so far: `controllers` or `plain` to { suite, layoutFile }. */
const shared = new Map();
let child;
let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM']) {
  // Ctrl-C reaches the test process too (same process group); wait for it, then stop the
  // shared suites (their processes are also killed when this process exits).
  process.on(signal, () => {
    interrupted = true;
    child?.kill(signal);
    if (!child) void stopShared().then(() => process.exit(128 + constants.signals[signal]));
  });
}

const results = [];
const scratch = await mkdtemp(join(tmpdir(), 'orch-test-'));
try {
  for (const tier of tiers) {
    if (interrupted) break;
    const files = byTier.get(tier);
    if (files.length === 0) continue;
    process.stdout.write(`\n== ${tier}: ${files.length} file${files.length === 1 ? '' : 's'}\n`);
    const started = Date.now();
    const env = { ...process.env, ORCH_TEST_TIER: tier };
    delete env.ORCH_SHARED_SUITE;
    delete env.ORCH_SHARED_SUITE_CONTROLLERS;
    if (tier !== 'unit' && !privateSuites) {
      const needs = { plain: false, controllers: false };
      for (const file of files) {
        const text = readFileSync(join(repo, file), 'utf8');
        needs.plain ||= usesShared.test(text);
        needs.controllers ||= usesSharedControllers.test(text);
      }
      try {
        await startShared(needs);
      } catch (err) {
        process.stderr.write(`cannot start the shared suites: ${err.stack ?? err}\n`);
        results.push({ tier, files: files.length, failedToStart: true, ms: Date.now() - started });
        continue;
      }
      if (shared.has('plain')) env.ORCH_SHARED_SUITE = shared.get('plain').layoutFile;
      if (shared.has('controllers')) {
        env.ORCH_SHARED_SUITE_CONTROLLERS = shared.get('controllers').layoutFile;
      }
    }
    const tap = join(scratch, `${tier}.tap`);
    const concurrency = tier === 'unit' ? Math.max(2, availableParallelism()) : suiteConcurrency;
    const code = await runNode(
      [
        '--test',
        `--test-concurrency=${concurrency}`,
        `--test-reporter=${process.stdout.isTTY ? 'spec' : 'tap'}`,
        '--test-reporter-destination=stdout',
        '--test-reporter=tap',
        `--test-reporter-destination=${tap}`,
        ...files,
      ],
      env
    );
    results.push({
      tier,
      files: files.length,
      code,
      ms: Date.now() - started,
      ...(await counts(tap)),
    });
  }
} finally {
  await stopShared();
  await rm(scratch, { recursive: true, force: true });
}

printSummary(results);
const failed = results.some((r) => r.failedToStart || r.code !== 0 || r.fail > 0);
process.exit(interrupted ? 130 : failed ? 1 : 0);

function tierOf(file) {
  if (file.split(sep)[0] === 'e2e') return 'e2e';
  return harness.test(readFileSync(join(repo, file), 'utf8')) ? 'integration' : 'unit';
}

async function startShared(needs) {
  const missing = Object.entries(needs)
    .filter(([kind, needed]) => needed && !shared.has(kind))
    .map(([kind]) => kind);
  if (missing.length === 0) return;
  const testing = await import(
    pathToFileURL(join(repo, 'packages', 'testing', 'dist', 'index.js')).href
  );
  await Promise.all(
    missing.map(async (kind) => {
      const started = Date.now();
      const s = await testing.startSharedSuite({ controllers: kind === 'controllers' });
      shared.set(kind, s);
      process.stdout.write(
        `shared suite ${kind === 'controllers' ? 'with' : 'without'} controllers ready in ` +
          `${((Date.now() - started) / 1000).toFixed(1)} s: ${s.suite.gateways.join(', ')}\n`
      );
    })
  );
}

async function stopShared() {
  const suites = [...shared.values()];
  shared.clear();
  await Promise.all(suites.map((s) => s.suite.stop()));
}

function runNode(nodeArgs, env) {
  return new Promise((resolvePromise) => {
    child = spawn(process.execPath, nodeArgs, { cwd: repo, env, stdio: 'inherit' });
    child.once('error', (err) => {
      process.stderr.write(`cannot run node --test: ${err.message}\n`);
      child = undefined;
      resolvePromise(1);
    });
    child.once('exit', (code, signal) => {
      child = undefined;
      resolvePromise(code ?? 128 + (constants.signals[signal] ?? 0));
    });
  });
}

/** The totals node's TAP reporter writes last (`# tests 12`, `# pass 11`, ...). */
async function counts(tapFile) {
  const text = await readFile(tapFile, 'utf8').catch(() => '');
  const total = (name) => {
    const all = [...text.matchAll(new RegExp(`^# ${name} (\\d+)$`, 'gm'))];
    return all.length > 0 ? Number(all.at(-1)[1]) : undefined;
  };
  return {
    tests: total('tests'),
    pass: total('pass'),
    fail: total('fail'),
    cancelled: total('cancelled'),
    skipped: total('skipped'),
    todo: total('todo'),
  };
}

function printSummary(rows) {
  if (rows.length === 0) return;
  const line = (cells) =>
    cells.map((c, i) => (i === 0 ? String(c).padEnd(12) : String(c).padStart(10))).join('');
  const out = [
    '',
    line(['tier', 'files', 'tests', 'pass', 'fail', 'cancelled', 'skipped', 'seconds', 'exit']),
  ];
  for (const r of rows) {
    const n = (v) => (r.failedToStart ? '-' : (v ?? '?'));
    out.push(
      line([
        r.tier,
        r.files,
        n(r.tests),
        n(r.pass),
        r.failedToStart ? 'suite' : n(r.fail),
        n(r.cancelled),
        n(r.skipped),
        (r.ms / 1000).toFixed(0),
        r.failedToStart ? '-' : r.code,
      ])
    );
  }
  process.stdout.write(`${out.join('\n')}\n`);
}

/** Files named `*.test.js` below a `dist` directory under `dir`; node_modules is skipped. */
function findTests(dir, inDist) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      out.push(...findTests(path, inDist || entry.name === 'dist'));
    } else if (inDist && entry.isFile() && entry.name.endsWith('.test.js')) {
      out.push(path);
    }
  }
  return out;
}
