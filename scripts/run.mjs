#!/usr/bin/env node
// The launcher behind `make run`: the whole suite on loopback, in the foreground.
//
//   ORCH_HOME      state directory (default <repo>/.run): pki/, etcd-data/, logs/, admin.kubeconfig
//   ORCH_PORT      port of the (first) gateway (default 6443)
//   ORCH_GATEWAYS  number of gateways (default 1), on ORCH_PORT, ORCH_PORT+1, ...
//
// What runs, in which order, with which flags and how readiness is known is the suite's one
// description (packages/suite, describeSuite); its Launcher starts it. Internal ports are picked
// free at every start; the PKI and etcd's data survive. If a process exits on its own, this
// prints which one and the end of its log, stops the rest and exits 1. SIGINT / SIGTERM stop
// every process in reverse order (SIGTERM, then SIGKILL after 10 s) and exit 0; a second one
// kills them at once.
//
// Plain Node ESM importing the built @orch/suite, so that it runs without a build step of its
// own (make run builds first).
import { existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const home = resolve(process.env.ORCH_HOME || join(repo, '.run'));
const gatewayPort = intFromEnv('ORCH_PORT', 6443, 1, 65535);
const gatewayCount = intFromEnv('ORCH_GATEWAYS', 1, 1, 64);
const logTailLines = 30;

/** @type {import('@orch/suite').Launcher | undefined} */
let launcher;
/** @type {Promise<void> | undefined} */
let shuttingDown;

process.on('SIGINT', () => void shutdown(0, 'SIGINT'));
process.on('SIGTERM', () => void shutdown(0, 'SIGTERM'));

main().catch(async (err) => {
  if (shuttingDown) return; // a process exited or a signal came: reported there
  if (err?.name === 'LaunchAbortedError') return;
  say(`error: ${err instanceof Error ? err.message : String(err)}`);
  await shutdown(1);
});

async function main() {
  const { Launcher, describeSuite, launchSuite } = await loadSuiteModule();
  let d;
  try {
    d = await describeSuite({ home, gatewayPort, gateways: gatewayCount, controllers: true });
  } catch (err) {
    if (/already in use/.test(String(err))) throw new Error(`${err.message}; set ORCH_PORT`);
    throw err;
  }
  say(`home ${home}`);
  launcher = new Launcher({
    logDir: d.logDir,
    cwd: repo,
    // A terminal's Ctrl-C reaches only this launcher, which stops the processes in order.
    detached: true,
    say: (line) => say(line.replace(d.logDir, rel(d.logDir))),
    onUnexpectedExit: (p) => {
      say(`${p.name} ${p.exitReason()} unexpectedly`);
      const tail = p.logTail(logTailLines);
      process.stderr.write(
        tail ? `---- last lines of ${p.logFile} ----\n${tail}\n----\n` : `(${p.logFile} is empty)\n`
      );
      void shutdown(1);
    },
  });
  await launchSuite(d, launcher);

  const urls = d.gateways.map((g) => g.url).join(', ');
  process.stdout.write(`
orch is running: ${urls}
  logs:  ${d.logDir}/
  state: ${home}

Reach it with kubectl:
  export KUBECONFIG=${d.kubeconfigs.admin.path}
  kubectl get namespaces

Press Ctrl-C to stop.
`);
}

/** Stops every process in reverse start order, then exits with `code`. Runs once. */
function shutdown(code, signal) {
  if (shuttingDown) {
    if (signal) {
      say(`second ${signal}: killing everything now`);
      launcher?.killAll();
    }
    return shuttingDown;
  }
  if (signal) say(`${signal}: stopping`);
  shuttingDown = (async () => {
    await launcher?.stop();
    process.exit(code);
  })();
  return shuttingDown;
}

async function loadSuiteModule() {
  const file = join(repo, 'packages/suite/dist/index.js');
  if (!existsSync(file)) {
    throw new Error(`${rel(file)} does not exist; build the suite first (make build)`);
  }
  return import(pathToFileURL(file).href);
}

function intFromEnv(key, fallback, min, max) {
  const raw = process.env[key];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) {
    say(`error: ${key}=${raw} is not an integer in [${min}, ${max}]`);
    process.exit(2);
  }
  return n;
}

function rel(file) {
  const r = relative(process.cwd(), file);
  return r.startsWith('..') ? file : r;
}

function say(line) {
  process.stderr.write(`[orch] ${line}\n`);
}
