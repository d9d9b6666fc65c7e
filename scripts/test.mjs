#!/usr/bin/env node
// The runner behind `make test`: every compiled test file (`dist/**/*.test.js`) under packages/,
// services/ and e2e/, in three tiers run one after the other with node's test runner, and at the end
// the count of tests (pass, fail) per tier. The exit code is 0 when every tier passed.
//
//   node scripts/test.mjs                        the three tiers: unit, integration, e2e
//   node scripts/test.mjs unit                   one tier (make test-unit, test-integration, test-e2e)
//   node scripts/test.mjs integration watch      files of the tier whose path holds `watch`
//   node scripts/test.mjs --unit                 the unit tier (the former flag)
//   node scripts/test.mjs --private-suites ...   no shared suite: sharedSuite() starts one per file
//                                                (as before the tiers; to compare, or to bisect)
//   node scripts/test.mjs --isolate ...          a process per file, as `node --test` runs them
//   node scripts/test.mjs --record-durations     after a run that passed, write each file's seconds
//                                                to scripts/test-durations.json (the start order)
//
// The tiers, decided per file:
//   e2e          files under e2e/: real kubectl, client-node and the Python client;
//   integration  files under packages/ and services/ whose compiled text names a harness
//                function that starts processes: startSuite, sharedSuite, startGateway,
//                startEtcd, startNats or spawnBackend (@orch/testing);
//   unit         the rest (the bench's own helpers among them): no process.
// Each tier's files run in a pool of worker processes (scripts/test-worker.mjs), each running one
// file at a time as a suite named after its path and taking the next when it ends, instead of a
// process per file: the modules the files share (the harness, the API model) are loaded once
// per worker. The unit tier has cores + 2 workers (ORCH_TEST_UNIT_WORKERS overrides); --isolate
// runs each file in a process of its own (`node --test`), to find a test that leaks state.
// The rule is enforced: the runner sets ORCH_TEST_TIER to the tier, and in the unit tier those
// harness functions throw "a unit test may not start processes", so a file that reaches the
// harness in a way this reading does not see (a helper module) fails loudly.
//
// Shared suites: a file that calls `sharedSuite()` or `sharedSuite({ controllers: true })` (a
// literal, as read in its compiled text) runs on one suite the runner starts before the tier
// (while the unit tier runs, when it does), the one without controllers or the one with them,
// each started only when a file of the run uses it and stopped at the end (also on failure or
// Ctrl-C). The runner passes each one's layout file (JSON: gateway URLs, kubeconfigs, PKI,
// ports) in ORCH_SHARED_SUITE and ORCH_SHARED_SUITE_CONTROLLERS; a file run alone
// (`node --test x.test.js`) gets a private one.
// Integration and e2e files run at least two at a time (as many as the machine has cores, at
// most four), and one more while the cores stay at least a quarter idle: a file mostly
// waits on its processes on a fast machine, and competes for the cores on a slow or busy one,
// where more files at once only starve them. ORCH_TEST_CONCURRENCY fixes the count (1: one at a
// time). Files on a shared suite may therefore run beside another file on the same suite: they
// use names of their own. Within a tier, the files expected to take longest start first, so that
// a long file does not start last and hold the tier's end: by the seconds each took when they
// were last recorded (scripts/test-durations.json, committed, as knapsack's report is; rewritten
// by `--record-durations` after a run that passed), and a file not recorded yet before them.
//
// Expects a build (`npx tsc --build`, or `make test` which builds first); before the integration
// and e2e tiers it bundles the services whose bundles are stale (scripts/bundle.mjs).
import { fork, spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { availableParallelism, constants, cpus, tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const tierNames = ['unit', 'integration', 'e2e'];
const countNames = ['tests', 'pass', 'fail', 'cancelled', 'skipped', 'todo'];
const durationsFile = join(repo, 'scripts', 'test-durations.json');
/** Seconds each file took when last recorded (compiled path to seconds). */
const recorded = existsSync(durationsFile) ? JSON.parse(readFileSync(durationsFile, 'utf8')) : {};
/** Seconds each file took in this run, from its TAP block. */
const measured = new Map();
const harness = /\b(?:startSuite|sharedSuite|startGateway|startEtcd|startNats|spawnBackend)\b/;
const ownProcesses = /\b(?:startSuite|startGateway|startEtcd|startNats|spawnBackend)\(/;
/** Each compiled test file's text, read once: its tier, its order and its shared suites. */
const texts = new Map();
const usesShared = /\bsharedSuite\(\s*\)/;
const usesSharedControllers = /\bsharedSuite\(\s*\{\s*controllers:\s*true\s*\}\s*\)/;

/**
 * Integration and e2e files run at once: `base` always, up to `max` while the cores are idle
 * enough (ORCH_TEST_CONCURRENCY fixes both).
 */
const fixedConcurrency = Number(process.env.ORCH_TEST_CONCURRENCY) || undefined;
const suiteBase = fixedConcurrency ?? Math.min(4, Math.max(2, availableParallelism()));
const suiteConcurrency = { base: suiteBase, max: fixedConcurrency ?? suiteBase + 1 };
/** Worker processes of the unit tier (ORCH_TEST_UNIT_WORKERS overrides). */
const unitWorkers =
  Number(process.env.ORCH_TEST_UNIT_WORKERS) || Math.min(8, availableParallelism() + 2);

const argv = process.argv.slice(2);
const privateSuites = argv.includes('--private-suites');
const isolate = argv.includes('--isolate');
const recordDurations = argv.includes('--record-durations');
const args = argv
  .filter((a) => a !== '--private-suites' && a !== '--isolate' && a !== '--record-durations')
  .map((a) => (a === '--unit' ? 'unit' : a));
const badFlags = args.filter((a) => a.startsWith('-'));
if (badFlags.length > 0) {
  process.stderr.write(
    `usage: node scripts/test.mjs [--private-suites] [--isolate] [--record-durations] [unit|integration|e2e]... [path filter]...\nunknown flag: ${badFlags.join(' ')}\n`
  );
  process.exit(2);
}
const chosen = args.filter((a) => tierNames.includes(a));
const filters = args.filter((a) => !tierNames.includes(a));
const tiers = chosen.length > 0 ? tierNames.filter((t) => chosen.includes(t)) : tierNames;

/** Every compiled test file, and those this run chose. */
const every = ['packages', 'services', 'bench', 'e2e']
  .map((root) => join(repo, root))
  .filter((dir) => existsSync(dir))
  .flatMap((dir) => findTests(dir, false))
  .map((file) => relative(repo, file))
  .sort();
const all = every.filter((file) => filters.length === 0 || filters.some((f) => file.includes(f)));
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
for (const files of byTier.values()) files.sort(longestFirst);
// The suites start the services' bundles: bring the stale ones up to date with the compiled
// sources first (a no-op after `make build`), so that no test runs an older build.
if (tiers.some((t) => t !== 'unit' && byTier.get(t).length > 0)) {
  const bundled = spawnSync(process.execPath, [join(repo, 'scripts', 'bundle.mjs')], {
    stdio: 'inherit',
  });
  if (bundled.status !== 0) process.exit(1);
}

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
/** Each failed start of a tier's shared suites: { tier, attempt, failure }. */
const startFailures = [];
const scratch = await mkdtemp(join(tmpdir(), 'orch-test-'));
// The shared suites the later tiers use start while the unit tier runs (it starts no process):
// their ten seconds of start no longer hold the integration tier's first files. Awaited, and a
// failure reported, by the first tier that needs them.
let early;
if (!privateSuites && tiers[0] === 'unit' && byTier.get('unit').length > 0) {
  const needs = sharedNeeds(tiers.filter((t) => t !== 'unit').flatMap((t) => byTier.get(t)));
  if (needs.plain || needs.controllers) {
    early = startShared(needs);
    early.catch(() => {}); // not unhandled while the unit tier runs
  }
}
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
      const needs = sharedNeeds(files);
      // A start that fails is tried once more (a loaded machine can make a process miss its
      // start timeout); the summary says why it failed either way. The start begun during the
      // unit tier is the first try.
      let failure;
      for (let attempt = 1; attempt <= 2; attempt++) {
        try {
          const begun = early;
          early = undefined;
          await begun;
          await startShared(needs);
          failure = undefined;
          break;
        } catch (err) {
          process.stderr.write(`cannot start the shared suites: ${err.stack ?? err}\n`);
          failure = String(err?.message ?? err)
            .split('\n')
            .slice(0, 24)
            .join('\n');
          startFailures.push({ tier, attempt, failure });
        }
      }
      if (failure !== undefined) {
        results.push({ tier, files: files.length, failedToStart: true, ms: Date.now() - started });
        continue;
      }
      if (shared.has('plain')) env.ORCH_SHARED_SUITE = shared.get('plain').layoutFile;
      if (shared.has('controllers')) {
        env.ORCH_SHARED_SUITE_CONTROLLERS = shared.get('controllers').layoutFile;
      }
    }
    const workers = tier === 'unit' ? { base: unitWorkers, max: unitWorkers } : suiteConcurrency;
    if (!isolate) {
      const run = await runPool(files, workers, env);
      results.push({ tier, files: files.length, ms: Date.now() - started, ...run });
      continue;
    }
    const tap = join(scratch, `${tier}.tap`);
    const code = await runNode(
      [
        '--test',
        `--test-concurrency=${workers.base}`,
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
      ...counts(await readFile(tap, 'utf8').catch(() => '')),
    });
  }
} finally {
  await early?.catch(() => {}); // an interrupted unit tier: the suites still starting, then stopped
  await stopShared();
  await rm(scratch, { recursive: true, force: true });
}

printSummary(results);
const failed = results.some((r) => r.failedToStart || r.code !== 0 || r.fail > 0);
if (recordDurations && !failed && !interrupted) writeDurations();
process.exit(interrupted ? 130 : failed ? 1 : 0);

/**
 * The order files start in, the longest expected first, so that a long file does not start last
 * and hold the tier's end: by recorded seconds; a file not recorded yet first of all (it may be
 * long), those among them that start processes of their own (a private suite, a gateway, etcd)
 * before the others, the larger compiled file first.
 */
function longestFirst(a, b) {
  return weight(b) - weight(a) || a.localeCompare(b);
}
function weight(file) {
  if (typeof recorded[file] === 'number') return recorded[file];
  const text = textOf(file);
  return 1e12 + (ownProcesses.test(text) ? 1e9 : 0) + text.length;
}

/**
 * Rewrites scripts/test-durations.json with the seconds of the files this run ran, keeping the
 * others' entries while their files exist (a run of one tier updates that tier only).
 */
function writeDurations() {
  const next = {};
  for (const file of every) {
    const seconds = measured.get(file) ?? recorded[file];
    if (seconds !== undefined) next[file] = seconds;
  }
  writeFileSync(durationsFile, `${JSON.stringify(next, null, 2)}\n`);
  process.stdout.write(`recorded the seconds of ${measured.size} files in ${durationsFile}\n`);
}

function textOf(file) {
  let text = texts.get(file);
  if (text === undefined) texts.set(file, (text = readFileSync(join(repo, file), 'utf8')));
  return text;
}

function tierOf(file) {
  if (file.split(sep)[0] === 'e2e') return 'e2e';
  return harness.test(textOf(file)) ? 'integration' : 'unit';
}

/** Which shared suites these files call for: { plain, controllers }. */
function sharedNeeds(files) {
  const needs = { plain: false, controllers: false };
  for (const file of files) {
    const text = textOf(file);
    needs.plain ||= usesShared.test(text);
    needs.controllers ||= usesSharedControllers.test(text);
  }
  return needs;
}

async function startShared(needs) {
  const missing = Object.entries(needs)
    .filter(([kind, needed]) => needed && !shared.has(kind))
    .map(([kind]) => kind);
  if (missing.length === 0) return;
  const testing = await import(
    pathToFileURL(join(repo, 'packages', 'testing', 'dist', 'index.js')).href
  );
  // allSettled: a suite still starting when the other fails is kept (and stopped at the end)
  const settled = await Promise.allSettled(
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
  const failed = settled.find((s) => s.status === 'rejected');
  if (failed) throw failed.reason;
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
function counts(text) {
  const total = (name) => {
    const all = [...text.matchAll(new RegExp(`^# ${name} (\\d+)$`, 'gm'))];
    return all.length > 0 ? Number(all.at(-1)[1]) : undefined;
  };
  return Object.fromEntries(countNames.map((name) => [name, total(name)]));
}

/**
 * A tier's files in processes of scripts/test-worker.mjs, each running one file at a time as a
 * suite named after its path and asking for the next when it ends (so a file that waits on timers
 * holds one worker, not the tier). `workers.base` files run at once; up to `workers.max` while the
 * machine's cores stay idle enough (see {@link admission}). Each worker's TAP is written out a
 * file at a time (spec-like lines on a terminal, whole blocks otherwise, a failing file's block
 * always), and the totals are summed over the workers.
 */
function runPool(files, workers, env) {
  const queue = [...files];
  const started = [];
  const ends = [];
  /** Workers that asked for a file and wait for one. */
  const waiting = [];
  /** Files running now: the workers that have one. */
  const running = () => started.filter((w) => w.busy).length;
  const admit = admission(workers);
  let settle;
  const settled = new Promise((r) => (settle = r));

  const dispatch = () => {
    while (waiting.length > 0) {
      if (queue.length === 0) {
        for (const w of waiting.splice(0)) w.send(null);
        break;
      }
      if (!admit.admits(running())) break;
      const w = waiting.shift();
      w.ran += 1;
      w.busy = true;
      admit.admitted(running());
      w.send(queue.shift());
    }
    // A worker more when every worker is busy and another file may start.
    if (
      waiting.length === 0 &&
      queue.length > 0 &&
      started.length < Math.min(workers.max, files.length) &&
      admit.admits(running())
    ) {
      startWorker();
    }
  };
  const tick = setInterval(() => {
    admit.sample();
    dispatch();
  }, 1000);

  function startWorker() {
    const worker = fork(join(repo, 'scripts', 'test-worker.mjs'), [], {
      cwd: repo,
      env,
      execArgv: ['--test-reporter=tap', '--test-reporter-destination=stdout'],
      stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
    });
    started.push(worker);
    worker.ran = 0;
    worker.busy = false;
    worker.on('message', () => {
      worker.busy = false; // the file it had ended
      waiting.push(worker);
      dispatch();
    });
    let tap = '';
    let pending = '';
    worker.stdout.setEncoding('utf8');
    worker.stdout.on('data', (chunk) => {
      tap += chunk;
      pending += chunk;
      // A file's block is complete when the next one starts (a top-level `# Subtest:`).
      const next = pending.lastIndexOf('\n# Subtest: ');
      if (next > 0) {
        printFileBlocks(pending.slice(0, next + 1));
        pending = pending.slice(next + 1);
      }
    });
    let gone = false;
    const end = (code) => {
      if (gone) return; // 'error' and 'exit' may both come
      gone = true;
      worker.busy = false;
      ends.push({ code, ran: worker.ran, tap });
      const i = waiting.indexOf(worker);
      if (i >= 0) waiting.splice(i, 1);
      // Every worker gone: the queue is empty, or the workers died (the files left are reported).
      if (ends.length === started.length) {
        clearInterval(tick);
        settle();
      }
    };
    worker.once('error', (err) => {
      process.stderr.write(`cannot start a test worker: ${err.message}\n`);
      end(1);
    });
    worker.once('exit', (code, signal) => {
      printFileBlocks(pending);
      end(code ?? 128 + (constants.signals[signal] ?? 0));
    });
  }

  for (let i = 0; i < Math.min(workers.base, files.length); i++) startWorker();
  child = { kill: (signal) => started.forEach((worker) => worker.kill(signal)) };
  return settled.then(() => {
    child = undefined;
    // A worker that stopped early (its file crashed it) leaves files nobody ran: say so.
    if (queue.length > 0) process.stderr.write(`${queue.length} file(s) not run: a worker died\n`);
    const sum = {};
    for (const name of countNames) {
      // A worker that found the queue empty ran nothing and writes no totals.
      const each = ends.filter((e) => e.ran > 0).map((e) => counts(e.tap)[name]);
      sum[name] = each.includes(undefined) ? undefined : each.reduce((a, b) => a + b, 0);
    }
    const code = ends.find((e) => e.code !== 0)?.code ?? (queue.length > 0 ? 1 : 0);
    return { code, ...sum, peak: admit.peak };
  });
}

/**
 * How many files of a tier run at once: `base` always; more, up to `max`, only while the cores
 * were at least `idleShare` idle over the last seconds and the last extra file had time to load
 * the machine. Files of the integration and e2e tiers mostly wait on their processes on a fast
 * machine and compete for the cores on a slow or busy one; a fixed higher count made the slow
 * case slower (processes starved, timeouts and polling stretched), so the count follows the idle
 * share instead of the number of cores.
 */
function admission({ base, max }) {
  const idleShare = 0.25;
  const settleMs = 4000;
  const window = [cpuTimes()];
  let lastExtra = 0;
  const state = {
    peak: 0,
    /** A sample of the cores' times, one a second; the last four are kept. */
    sample() {
      window.push(cpuTimes());
      if (window.length > 4) window.shift();
    },
    admits(running) {
      if (running < base) return true;
      if (running >= max || window.length < 2 || Date.now() - lastExtra < settleMs) return false;
      const first = window[0];
      const last = window.at(-1);
      const total = last.total - first.total;
      return total > 0 && (last.idle - first.idle) / total >= idleShare;
    },
    admitted(running) {
      if (running > base) lastExtra = Date.now();
      state.peak = Math.max(state.peak, running);
    },
  };
  return state;
}

/** The cores' idle and total times (ms) since boot, summed. */
function cpuTimes() {
  let idle = 0;
  let total = 0;
  for (const { times } of cpus()) {
    idle += times.idle;
    total += times.user + times.nice + times.sys + times.idle + times.irq;
  }
  return { idle, total };
}

/** Top-level blocks of a worker's TAP, one per file, without the plan and the totals. */
function printFileBlocks(text) {
  const blocks = text
    .split(/^(?=# Subtest: )/m)
    .map((b) => b.replace(/^(TAP version 13|1\.\.\d+|# (?:suites|duration_ms|\w+) \S+)\n/gm, ''))
    .filter((b) => b.trim() !== '');
  for (const block of blocks) {
    const end = /^(not )?ok \d+ - (.*)$/m.exec(block);
    const took = end && /^ {2}duration_ms: ([\d.]+)/m.exec(block.slice(end.index));
    if (took) measured.set(end[2], Math.round(Number(took[1]) / 100) / 10);
    if (process.stdout.isTTY && end && !end[1]) {
      process.stdout.write(`✔ ${end[2]}${took ? ` (${Math.round(Number(took[1]))} ms)` : ''}\n`);
    } else {
      process.stdout.write(block.endsWith('\n') ? block : `${block}\n`);
    }
  }
}

function printSummary(rows) {
  if (rows.length === 0) return;
  const line = (cells) =>
    cells.map((c, i) => (i === 0 ? String(c).padEnd(12) : String(c).padStart(10))).join('');
  const out = [
    '',
    line([
      'tier',
      'files',
      'tests',
      'pass',
      'fail',
      'cancelled',
      'skipped',
      'seconds',
      'at once',
      'exit',
    ]),
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
        r.peak ?? '-',
        r.failedToStart ? '-' : r.code,
      ])
    );
  }
  // CI shows the end of the output: say there why a tier's shared suites did not start
  for (const f of startFailures) {
    out.push(`${f.tier}: the shared suites did not start (attempt ${f.attempt}): ${f.failure}`);
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
