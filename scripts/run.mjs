#!/usr/bin/env node
// The launcher behind `make run`: the whole suite on loopback, in the foreground.
//
//   ORCH_HOME      state directory (default <repo>/.run): pki/, etcd-data/, logs/, admin.kubeconfig
//   ORCH_PORT      port of the (first) gateway (default 6443)
//   ORCH_GATEWAYS  number of gateways (default 1), on ORCH_PORT, ORCH_PORT+1, ...
//
// Order: PKI and kubeconfigs, etcd, NATS, storage, authorizer, gateway(s), controllers; each waits for the
// previous one to be ready. Internal ports are picked free at every start; etcd's data survives.
// If a child exits on its own, the launcher prints which one and the tail of its log, stops the
// rest and exits 1. SIGINT / SIGTERM stop every child in reverse order (SIGTERM, then SIGKILL
// after 10 s) and exit 0.
//
// Plain Node ESM with no dependencies beyond node: built-ins and the built @orch/component-base
// PKI module, so that it runs without a build step of its own.
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync } from 'node:fs';
import { get as httpGet } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { createServer } from 'node:net';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const home = resolve(process.env.ORCH_HOME || join(repo, '.run'));
const gatewayPort = intFromEnv('ORCH_PORT', 6443, 1, 65535);
const gatewayCount = intFromEnv('ORCH_GATEWAYS', 1, 1, 64);
const stopGraceMs = 10_000;
const logTailLines = 30;

/** @typedef {{ name: string, child: import('node:child_process').ChildProcess, logFile: string, exited: Promise<void>, done: boolean }} Running */
/** @type {Running[]} */
const running = [];
let stopping = false;
/** Rejected (once) when a child exits unexpectedly or a stop is requested; startup waits race on it. */
let abortStartup;
const aborted = new Promise((_, reject) => {
  abortStartup = reject;
});
aborted.catch(() => undefined);

process.on('SIGINT', () => void shutdown(0, 'SIGINT'));
process.on('SIGTERM', () => void shutdown(0, 'SIGTERM'));

main().catch(async (err) => {
  if (err instanceof AbortError) return; // reported where it happened
  if (!stopping) {
    say(`error: ${err instanceof Error ? err.message : String(err)}`);
  }
  await shutdown(1);
});

async function main() {
  const pki = await loadPkiModule();
  const gatewayPorts = Array.from({ length: gatewayCount }, (_, i) => gatewayPort + i);
  for (const port of gatewayPorts) {
    if (port > 65535) throw new Error(`gateway port ${port} is out of range`);
    if (!(await portIsFree(port))) {
      throw new Error(`127.0.0.1:${port} is already in use (another orch running?); set ORCH_PORT`);
    }
  }

  const dirs = { pki: join(home, 'pki'), etcd: join(home, 'etcd-data'), logs: join(home, 'logs') };
  mkdirSync(dirs.logs, { recursive: true });
  mkdirSync(dirs.etcd, { recursive: true, mode: 0o700 });

  // PKI and kubeconfigs. ensureClusterPki keeps what exists, so a restart reuses the CA.
  const cluster = await pki.ensureClusterPki(dirs.pki);
  const ca = cluster.caFile;
  const cert = (name) => cluster.file(name);
  const server = `https://127.0.0.1:${gatewayPort}`;
  const adminKubeconfig = join(home, 'admin.kubeconfig');
  const controllersKubeconfig = join(home, 'controllers.kubeconfig');
  const authorizerKubeconfig = join(home, 'authorizer.kubeconfig');
  const admin = cert(pki.adminCertName);
  await pki.writeKubeconfig(adminKubeconfig, { server, caFile: ca, ...admin, user: 'orch-admin' });
  await pki.writeKubeconfig(controllersKubeconfig, {
    server,
    caFile: ca,
    ...cert('controllers'),
    user: 'controllers',
  });
  // The authorizer writes its bootstrap policy through the (first) gateway, in system:masters.
  await pki.writeKubeconfig(authorizerKubeconfig, {
    server,
    caFile: ca,
    ...cert(pki.authorizerClientCertName),
    user: 'authorizer',
  });

  const ports = await freePorts(5);
  const [etcdClient, etcdPeer, natsPort, natsMonitor, storagePort] = ports;
  const [storageMetrics, authorizerPort, authorizerMetrics] = await freePorts(3, ports);
  const etcdUrl = `http://127.0.0.1:${etcdClient}`;
  const etcdPeerUrl = `http://127.0.0.1:${etcdPeer}`;
  const natsUrl = `nats://127.0.0.1:${natsPort}`;
  say(`home ${home}`);

  // etcd
  const etcdBin = findExecutable('etcd', ['/usr/bin', '/usr/local/bin']);
  const etcdEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('ETCD_')));
  if (process.arch === 'arm64') etcdEnv.ETCD_UNSUPPORTED_ARCH = 'arm64';
  start('etcd', etcdBin, [
    '--name', 'orch',
    '--data-dir', dirs.etcd,
    '--listen-client-urls', etcdUrl,
    '--advertise-client-urls', etcdUrl,
    '--listen-peer-urls', etcdPeerUrl,
    '--initial-advertise-peer-urls', etcdPeerUrl,
    '--initial-cluster', `orch=${etcdPeerUrl}`,
    '--logger', 'zap',
    '--log-outputs', 'stderr',
    '--log-level', 'warn',
  ], etcdEnv);
  await ready('etcd', 30_000, async () => {
    const { status, body } = await httpGetText(`${etcdUrl}/health`);
    return status === 200 && JSON.parse(body).health === 'true';
  });

  // NATS
  const natsBin = findExecutable('nats-server', ['/usr/sbin', '/usr/bin', '/usr/local/bin']);
  start('nats', natsBin, ['-a', '127.0.0.1', '-p', String(natsPort), '-m', String(natsMonitor)]);
  await ready('nats', 20_000, async () => {
    const { status } = await httpGetText(`http://127.0.0.1:${natsMonitor}/healthz`);
    return status === 200;
  });

  // storage: its metrics endpoint opens once gRPC is listening.
  const storage = cert('storage');
  startNode('storage', 'services/storage/dist/main.js', [
    `--etcd-servers=${etcdUrl}`,
    `--nats-url=${natsUrl}`,
    '--bind-address=127.0.0.1',
    `--secure-port=${storagePort}`,
    `--metrics-port=${storageMetrics}`,
    `--tls-cert-file=${storage.certFile}`,
    `--tls-private-key-file=${storage.keyFile}`,
    `--client-ca-file=${ca}`,
    '--identity=storage-0',
  ]);
  await ready('storage', 30_000, async () => {
    const { status } = await httpGetText(`http://127.0.0.1:${storageMetrics}/metrics`);
    return status === 200;
  });

  // authorizer: RBAC from informers; its metrics endpoint opens once its caches are synced. It
  // reconciles the bootstrap policy through the gateway afterwards; the gateway's /readyz waits
  // for that (poststarthook/rbac/bootstrap-roles).
  const authorizer = cert('authorizer');
  startNode('authorizer', 'services/authorizer/dist/main.js', [
    `--storage-servers=127.0.0.1:${storagePort}`,
    `--nats-url=${natsUrl}`,
    '--bind-address=127.0.0.1',
    `--secure-port=${authorizerPort}`,
    `--metrics-port=${authorizerMetrics}`,
    `--tls-cert-file=${authorizer.certFile}`,
    `--tls-private-key-file=${authorizer.keyFile}`,
    `--client-ca-file=${ca}`,
    `--kubeconfig=${authorizerKubeconfig}`,
  ]);
  await ready('authorizer', 30_000, async () => {
    const { status } = await httpGetText(`http://127.0.0.1:${authorizerMetrics}/metrics`);
    return status === 200;
  });

  // gateway(s): they share storage and NATS.
  const gateway = cert('gateway');
  for (const [i, port] of gatewayPorts.entries()) {
    const name = gatewayCount === 1 ? 'gateway' : `gateway-${i}`;
    startNode(name, 'services/gateway/dist/main.js', [
      '--bind-address=127.0.0.1',
      `--secure-port=${port}`,
      `--tls-cert-file=${gateway.certFile}`,
      `--tls-private-key-file=${gateway.keyFile}`,
      `--client-ca-file=${ca}`,
      `--storage-servers=127.0.0.1:${storagePort}`,
      `--grpc-ca-file=${ca}`,
      `--grpc-cert-file=${gateway.certFile}`,
      `--grpc-key-file=${gateway.keyFile}`,
      `--nats-url=${natsUrl}`,
      `--authorizer-servers=127.0.0.1:${authorizerPort}`,
      '--shutdown-delay-duration=0s',
    ]);
  }
  for (const [i, port] of gatewayPorts.entries()) {
    const name = gatewayCount === 1 ? 'gateway' : `gateway-${i}`;
    const tls = { ca: readFileSync(ca), cert: readFileSync(admin.certFile), key: readFileSync(admin.keyFile) };
    await ready(name, 90_000, async () => {
      const { status } = await httpsGetText(`https://127.0.0.1:${port}/readyz`, tls);
      return status === 200;
    });
  }

  // controllers act through the public API with their own certificate.
  startNode('controllers', 'services/controllers/dist/main.js', [`--kubeconfig=${controllersKubeconfig}`]);
  // Give it a moment, so that a crash at start is reported before "ready".
  await Promise.race([sleep(1500), aborted]);

  const urls = gatewayPorts.map((p) => `https://127.0.0.1:${p}`).join(', ');
  process.stdout.write(`
orch is running: ${urls}
  logs:  ${dirs.logs}/
  state: ${home}

Reach it with kubectl:
  export KUBECONFIG=${adminKubeconfig}
  kubectl get namespaces

Press Ctrl-C to stop.
`);
}

// ---------------------------------------------------------------------------------------------
// children

function startNode(name, entry, args) {
  const file = join(repo, entry);
  if (!existsSync(file)) {
    throw new Error(`${name}: ${entry} does not exist; build the suite first (make build)`);
  }
  return start(name, process.execPath, [file, ...args]);
}

function start(name, command, args, env = process.env) {
  if (stopping) throw new AbortError();
  const logFile = join(home, 'logs', `${name}.log`);
  // Keep the previous run's log beside the new one.
  if (existsSync(logFile)) renameSync(logFile, `${logFile}.1`);
  const fd = openSync(logFile, 'w');
  let child;
  try {
    // detached: a terminal's Ctrl-C reaches only the launcher, which stops children in order.
    child = spawn(command, args, { cwd: repo, env, stdio: ['ignore', fd, fd], detached: true });
  } finally {
    closeSync(fd);
  }
  /** @type {Running} */
  const entry = { name, child, logFile, done: false, exited: Promise.resolve() };
  entry.exited = new Promise((resolveExit) => {
    child.once('error', (err) => {
      if (entry.done) return;
      entry.done = true;
      onChildExit(entry, `could not be started: ${err.message}`);
      resolveExit();
    });
    child.once('exit', (code, signal) => {
      if (entry.done) return;
      entry.done = true;
      onChildExit(entry, signal ? `was killed by ${signal}` : `exited with code ${code}`);
      resolveExit();
    });
  });
  running.push(entry);
  say(`started ${name} (pid ${child.pid ?? '?'}), log ${rel(logFile)}`);
  return entry;
}

function onChildExit(entry, how) {
  if (stopping) return;
  say(`${entry.name} ${how} unexpectedly`);
  const tail = logTail(entry.logFile, logTailLines);
  if (tail) {
    process.stderr.write(`---- last lines of ${entry.logFile} ----\n${tail}\n----\n`);
  } else {
    process.stderr.write(`(${entry.logFile} is empty)\n`);
  }
  void shutdown(1);
}

/** Startup was cut short: a child exited, or a signal asked to stop. */
class AbortError extends Error {
  constructor() {
    super('startup aborted');
    this.name = 'AbortError';
  }
}

let shutdownDone;
/** Stops every child in reverse start order, then exits with `code`. Runs once. */
function shutdown(code, signal) {
  if (shutdownDone) {
    if (signal) {
      say(`second ${signal}: killing everything now`);
      for (const r of running) if (!r.done) kill(r.child, 'SIGKILL');
    }
    return shutdownDone;
  }
  stopping = true;
  abortStartup(new AbortError());
  if (signal) say(`${signal}: stopping`);
  shutdownDone = (async () => {
    for (const r of [...running].reverse()) {
      if (r.done) continue;
      kill(r.child, 'SIGTERM');
      const stopped = await Promise.race([r.exited.then(() => true), sleep(stopGraceMs).then(() => false)]);
      if (!stopped) {
        say(`${r.name} did not stop within ${stopGraceMs / 1000}s: SIGKILL`);
        kill(r.child, 'SIGKILL');
        await r.exited;
      }
      say(`stopped ${r.name}`);
    }
    process.exit(code);
  })();
  return shutdownDone;
}

function kill(child, signal) {
  try {
    child.kill(signal);
  } catch {
    // already gone
  }
}

/** Polls `check` until it returns true; fails on timeout or when a child exits meanwhile. */
async function ready(name, timeoutMs, check) {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  for (;;) {
    try {
      if (await Promise.race([check(), aborted])) {
        say(`${name} is ready`);
        return;
      }
      last = 'not ready yet';
    } catch (err) {
      if (err instanceof AbortError) throw err;
      last = err instanceof Error ? err.message : String(err);
    }
    if (Date.now() > deadline) {
      const r = running.find((x) => x.name === name);
      const tail = r ? logTail(r.logFile, logTailLines) : '';
      if (tail) process.stderr.write(`---- last lines of ${r.logFile} ----\n${tail}\n----\n`);
      throw new Error(`${name} was not ready after ${timeoutMs / 1000}s (${last})`);
    }
    await Promise.race([sleep(250), aborted]);
  }
}

// ---------------------------------------------------------------------------------------------
// helpers

async function loadPkiModule() {
  const file = join(repo, 'packages/component-base/dist/pki/index.js');
  if (!existsSync(file)) {
    throw new Error(`${rel(file)} does not exist; build the suite first (make build)`);
  }
  return import(pathToFileURL(file).href);
}

function findExecutable(name, extraDirs) {
  const dirs = [...(process.env.PATH ?? '').split(':').filter(Boolean), ...extraDirs];
  for (const dir of dirs) {
    const file = join(dir, name);
    if (existsSync(file)) return file;
  }
  throw new Error(`${name} not found (PATH and ${extraDirs.join(', ')}); run scripts/ensure-deps.sh`);
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

function portIsFree(port) {
  return new Promise((resolvePort) => {
    const srv = createServer();
    srv.once('error', () => resolvePort(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolvePort(true)));
  });
}

/** `count` distinct free loopback ports, none of them in `exclude`. */
async function freePorts(count, exclude = []) {
  const out = [];
  while (out.length < count) {
    const port = await new Promise((resolvePort, reject) => {
      const srv = createServer();
      srv.once('error', reject);
      srv.listen(0, '127.0.0.1', () => {
        const { port: p } = srv.address();
        srv.close(() => resolvePort(p));
      });
    });
    if (!out.includes(port) && !exclude.includes(port)) out.push(port);
  }
  return out;
}

function httpGetText(url) {
  return new Promise((resolveGet, reject) => {
    const req = httpGet(url, { timeout: 2000 }, (res) => collect(res, resolveGet, reject));
    req.once('timeout', () => req.destroy(new Error('timeout')));
    req.once('error', reject);
  });
}

function httpsGetText(url, tls) {
  return new Promise((resolveGet, reject) => {
    const req = httpsRequest(url, { method: 'GET', timeout: 2000, ...tls }, (res) =>
      collect(res, resolveGet, reject)
    );
    req.once('timeout', () => req.destroy(new Error('timeout')));
    req.once('error', reject);
    req.end();
  });
}

function collect(res, resolveGet, reject) {
  let body = '';
  res.setEncoding('utf8');
  res.on('data', (chunk) => (body += chunk));
  res.once('end', () => resolveGet({ status: res.statusCode ?? 0, body }));
  res.once('error', reject);
}

function logTail(file, lines) {
  try {
    const text = readFileSync(file, 'utf8').trimEnd();
    return text ? text.split('\n').slice(-lines).join('\n') : '';
  } catch {
    return '';
  }
}

function sleep(ms) {
  return new Promise((r) => setTimeout(r, ms));
}

function rel(file) {
  const r = relative(process.cwd(), file);
  return r.startsWith('..') ? file : r;
}

function say(line) {
  process.stderr.write(`[orch] ${line}\n`);
}
