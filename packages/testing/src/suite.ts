// The suite for tests: the processes of @orch/suite's description (etcd, NATS, storage, the
// authorizer, gateways, optionally the controllers and the certificates service), as `make run`
// starts them, in a temporary home on free ports. Every process is stopped by stop(), and killed
// if the test process exits. The same Suite also fronts a suite another process started (the
// runner's shared suites, shared-suite.ts): then it only knows the suite's layout.
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { Etcd3 } from 'etcd3';
import { certFiles, ensureClusterPki } from '@orch/component-base/pki';
import type { ClusterPki } from '@orch/component-base/pki';
import {
  LaunchError,
  Launcher,
  assertBundlesFresh,
  describeSuite,
  launchSuite,
  probeReadiness,
  registerTempDir,
  serviceEntry,
  unregisterTempDir,
} from '@orch/suite';
import type { LaunchedProcess, NodeService } from '@orch/suite';
import type { EtcdServer } from './etcd-server.js';
import type { NatsServer } from './nats-server.js';
import { refuseInUnitTier } from './test-tier.js';
import type { ThrowawayPki } from './throwaway-pki.js';

export interface Suite {
  /** Whether another process started it (a shared suite): then it has no process control. */
  shared: boolean;
  /** What a test process needs to reach it; a shared suite's file holds this. */
  layout: SuiteLayout;
  etcd: EtcdServer;
  nats: NatsServer;
  pki: ThrowawayPki;
  /** https://127.0.0.1:<port> of each gateway. */
  gateways: string[];
  /** An admin kubeconfig per gateway. */
  kubeconfigs: string[];
  storagePort: number;
  /** Port of the authorizer service (gRPC, mutual TLS). */
  authorizerPort: number;
  /** https://127.0.0.1:<port> of each process's operational server, by process name. */
  operational: Record<string, string>;
  /** Port of the admission service (gRPC, mutual TLS). */
  admissionPort: number;
  /** Port of the certificates service (gRPC, mutual TLS). */
  certificatesPort: number;
  /** Stops the admission service (SIGTERM), e.g. to see the gateway fail closed. */
  stopAdmission(): Promise<void>;
  /** host:port of each storage replica (gRPC); gateway i talks to replica i mod n. */
  storage: string[];
  /** The processes' names in start order: etcd, nats, storage[-i], authorizer, admission, gateway[-i]. */
  processNames(): string[];
  /** SIGKILL to one process (a crash, no cleanup), resolving once it has exited. */
  kill(name: string): Promise<void>;
  /**
   * Starts a killed or exited process again with its same flags, ports and data dir, and
   * resolves once its readiness holds (as at start: etcd /health, gRPC health, a gateway's
   * /readyz), with the milliseconds that took; rejects after `timeoutMs` (default the process's
   * start timeout) naming what was not ready.
   */
  restart(name: string, timeoutMs?: number): Promise<number>;
  /** Whether `name` is running and its every readiness holds now (one probe each). */
  ready(name: string): Promise<boolean>;
  /** Polls {@link ready} until it holds; resolves with the milliseconds waited, rejects after `timeoutMs`. */
  waitReady(name: string, timeoutMs: number): Promise<number>;
  /** The storage process holding the publisher lease (etcd election), if any. */
  publisher(): Promise<string | undefined>;
  /** The last `lines` lines of a process's log, for failure messages. */
  logTail(name: string, lines?: number): string;
  /** The pid of a process this test started (a private suite's, or a startGateway's own). */
  pid(name: string): number;
  /** Where each process's `<name>.log` is (removed by stop()). */
  logDir: string;
  /** GET/POST/... as the admin, JSON in and out (`raw`: the response bytes, for binary answers). */
  request(
    gateway: number,
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>
  ): Promise<SuiteResponse>;
  /** Stops the suite's processes; a shared suite is left running (the runner stops it). */
  stop(): Promise<void>;
}

/** Where a running suite's processes listen and its files are (JSON-safe). */
export interface SuiteLayout {
  home: string;
  pkiDir: string;
  logDir: string;
  /** The repository whose built services run (`services/<name>/dist/main.bundle.js`). */
  repoRoot: string;
  etcdUrl: string;
  etcdDataDir: string;
  natsUrl: string;
  natsMonitorUrl: string;
  /** host:port of each storage replica. */
  storage: string[];
  authorizer: string;
  admission: string;
  /** host:port of the certificates service, when it runs. */
  certificates?: string;
  gateways: string[];
  /** An admin kubeconfig per gateway. */
  kubeconfigs: string[];
  controllers: boolean;
  /** The operational server of each process that runs one, by process name. */
  operational: Record<string, string>;
  /** The processes' names in start order. */
  processNames: string[];
}

export interface SuiteResponse {
  status: number;
  body: unknown;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  raw: Buffer;
}

export interface SuiteOptions {
  /** How many gateways (default 1), or one entry per gateway with flags of its own (after gatewayArgs). */
  gateways?: number | { args?: string[] }[];
  controllers?: boolean;
  /**
   * Start the certificates service (default false): only tests of CertificateSigningRequests
   * and of its controllers (bootstrap tokens, CSR signing) need it; without it a CSR write
   * answers 503 and nothing else changes.
   */
  certificates?: boolean;
  /** Storage replicas (default 1), as compose runs two; gateway i talks to replica i mod n. */
  storageReplicas?: number;
  storageArgs?: string[];
  /** The gateways' --authorization-mode (default RBAC, answered by the authorizer service). */
  authorizationMode?: 'RBAC' | 'AlwaysAllow' | 'AlwaysDeny';
  authorizerArgs?: string[];
  admissionArgs?: string[];
  /** Extra flags for the certificates service (its controllers and signers, for instance). */
  certificatesArgs?: string[];
  /** Extra flags for the controllers service (with `controllers: true`). */
  controllersArgs?: string[];
  /**
   * Start the controllers again when they exit after start-up, as their deployment would (they
   * exit on a lost lease, as kube-controller-manager does, which a loaded machine can cause).
   * The shared suites set it: no test owns their processes, so nothing else would.
   */
  restartControllers?: boolean;
  /** Extra flags for every gateway (a function gets the suite's PKI, e.g. to name its files). */
  gatewayArgs?: string[] | ((pki: ThrowawayPki) => string[]);
}

/** Starts over on new ports this many times when a process lost a free port to someone else. */
const attempts = 3;

export async function startSuite(opts: SuiteOptions = {}): Promise<Suite> {
  refuseInUnitTier('a suite');
  for (let attempt = 1; ; attempt++) {
    try {
      return await startSuiteOnce(opts);
    } catch (err) {
      if (!(err instanceof LaunchError && err.portInUse) || attempt >= attempts) throw err;
    }
  }
}

async function startSuiteOnce(opts: SuiteOptions): Promise<Suite> {
  const home = await mkdtemp(join(tmpdir(), 'orch-suite-'));
  registerTempDir(home);
  const removeHome = async (): Promise<void> => {
    await rm(home, { recursive: true, force: true });
    unregisterTempDir(home);
  };
  const launcher = new Launcher({
    logDir: join(home, 'logs'),
    say: (line) => {
      if (/starting it again|did not start again/.test(line)) process.stderr.write(`${line}\n`);
    },
    ...(opts.restartControllers ? { restartAfterExit: (spec) => spec.role === 'controllers' } : {}),
  });
  try {
    const pki = throwaway(await ensureClusterPki(join(home, 'pki')));
    const d = await describeSuite({
      home,
      gateways: opts.gateways ?? 1,
      storageReplicas: opts.storageReplicas ?? 1,
      authorizationMode: opts.authorizationMode ?? 'RBAC',
      controllers: opts.controllers ?? false,
      certificates: opts.certificates ?? false,
      args: {
        storage: opts.storageArgs ?? [],
        authorizer: opts.authorizerArgs ?? [],
        admission: opts.admissionArgs ?? [],
        certificates: opts.certificatesArgs ?? [],
        controllers: opts.controllersArgs ?? [],
        gateway:
          typeof opts.gatewayArgs === 'function' ? opts.gatewayArgs(pki) : (opts.gatewayArgs ?? []),
      },
    });
    await launchSuite(d, launcher);
    const layout: SuiteLayout = {
      home: d.home,
      pkiDir: d.pkiDir,
      logDir: d.logDir,
      repoRoot,
      etcdUrl: d.etcdUrl,
      etcdDataDir: d.etcdDataDir,
      natsUrl: d.natsUrl,
      natsMonitorUrl: d.natsMonitorUrl,
      storage: d.storage,
      authorizer: d.authorizer,
      admission: d.admission,
      ...(opts.certificates ? { certificates: d.certificates } : {}),
      gateways: d.gateways.map((g) => g.url),
      kubeconfigs: d.adminKubeconfigs,
      controllers: opts.controllers ?? false,
      operational: d.operational,
      processNames: launcher.processes.map((p) => p.name),
    };
    const suite = suiteOf(layout, launcher, pki, async () => {
      await launcher.stop();
      await removeHome();
    });
    await writeFile(join(home, 'suite.json'), JSON.stringify(layout));
    return suite;
  } catch (err) {
    await launcher.stop();
    await removeHome();
    throw err;
  }
}

/** The repository this package runs from (packages/testing/dist/suite.js). */
const repoRoot = resolve(fileURLToPath(import.meta.url), '../../../..');

/** The file a service of this repository starts from (its bundle), for a test that starts one alone. */
export function serviceBundle(service: NodeService): string {
  assertBundlesFresh(repoRoot);
  return serviceEntry(repoRoot, service);
}

/**
 * The Suite over a layout: with the `launcher` that started it, every method works; without
 * one (a shared suite, started by another process) the process-control methods throw.
 */
export function suiteOf(
  d: SuiteLayout,
  launcher: Launcher | undefined,
  pki: ThrowawayPki,
  stop: () => Promise<void>
): Suite {
  /** The launcher of `name`: a shared suite's processes belong to the runner. */
  const owner = (name: string): Launcher => {
    if (launcher) return launcher;
    throw new Error(
      `${name}: a shared suite's processes belong to the test runner; fault tests need a ` +
        'private suite (startSuite)'
    );
  };
  const proc = (name: string): LaunchedProcess => {
    const p = owner(name).get(name);
    if (!p) throw new Error(`the suite has no process ${name}`);
    return p;
  };
  const admin = pki.file('admin');
  const adminTls = {
    ca: readFileSync(pki.caFile),
    cert: readFileSync(admin.certFile),
    key: readFileSync(admin.keyFile),
  };
  const gateways = d.gateways;
  const port = (address: string): number => Number(address.slice(address.lastIndexOf(':') + 1));
  return {
    shared: launcher === undefined,
    layout: d,
    etcd: {
      endpoint: d.etcdUrl,
      dataDir: d.etcdDataDir,
      get pid() {
        return proc('etcd').pid;
      },
      stop: () => proc('etcd').stop('SIGTERM'),
      kill: () => proc('etcd').stop('SIGKILL'),
    },
    nats: {
      url: d.natsUrl,
      monitorUrl: d.natsMonitorUrl,
      get pid() {
        return proc('nats').pid;
      },
      stop: () => proc('nats').stop('SIGTERM'),
      kill: () => proc('nats').stop('SIGKILL'),
    },
    pki,
    gateways,
    kubeconfigs: d.kubeconfigs,
    storagePort: port(d.storage[0]!),
    authorizerPort: port(d.authorizer),
    operational: d.operational,
    certificatesPort: d.certificates === undefined ? 0 : port(d.certificates),
    admissionPort: port(d.admission),
    stopAdmission: async () => {
      await proc('admission').stop('SIGTERM');
    },
    storage: d.storage,
    processNames: () => launcher?.processes.map((p) => p.name) ?? d.processNames,
    kill: (name) => proc(name).stop('SIGKILL'),
    restart: async (name, timeoutMs) => {
      const startedAt = Date.now();
      const p = owner(name).respawn(name);
      await withTimeout(owner(name).waitReady(p), timeoutMs, `${name} after its restart`);
      return Date.now() - startedAt;
    },
    ready: (name) => processReady(proc(name)),
    waitReady: async (name, timeoutMs) => {
      const startedAt = Date.now();
      for (;;) {
        if (await processReady(proc(name))) return Date.now() - startedAt;
        if (Date.now() - startedAt > timeoutMs) {
          throw new Error(
            `${name} was not ready within ${timeoutMs} ms\n--- last lines of ${name}.log ---\n${proc(name).logTail(20)}`
          );
        }
        await sleep(100);
      }
    },
    publisher: async () => {
      owner('storage'); // which replica publishes is a fault test's question
      const client = new Etcd3({ hosts: d.etcdUrl });
      try {
        const identity = await client.election(publisherElection).leader();
        // Storage replica i campaigns as storage-<i>; its process is `storage` when alone.
        return identity === undefined || d.storage.length > 1 ? identity : 'storage';
      } finally {
        client.close();
      }
    },
    logTail: (name, lines) =>
      launcher ? proc(name).logTail(lines) : fileTail(join(d.logDir, `${name}.log`), lines),
    pid: (name) => proc(name).pid,
    logDir: d.logDir,
    request: (gateway, method, path, body, headers = {}) =>
      adminRequest(adminTls, new URL(path, gateways[gateway]), method, body, headers),
    stop,
  };
}

/** The etcd election the storage replicas campaign in for the publisher (services/storage). */
const publisherElection = 'orch-storage-publisher';

/** Whether a running process's every readiness holds now. */
async function processReady(p: LaunchedProcess): Promise<boolean> {
  if (p.exitReason() !== undefined) return false;
  const startedAt = Date.now() - 60_000; // a `running` readiness: it has run long enough
  for (const r of p.spec.ready) {
    if (!(await probeReadiness(r, startedAt).catch(() => false))) return false;
  }
  return true;
}

async function withTimeout<T>(work: Promise<T>, timeoutMs: number | undefined, what: string) {
  if (timeoutMs === undefined) return work;
  work.catch(() => undefined); // its failure after the timeout is no one's to handle
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${what}: not ready within ${timeoutMs} ms`)),
      timeoutMs
    );
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** The last `lines` lines (default 20) of a log file another process writes. */
function fileTail(file: string, lines = 20): string {
  try {
    return readFileSync(file, 'utf8')
      .split('\n')
      .slice(-lines - 1)
      .join('\n');
  } catch (err) {
    return `(no log: ${(err as Error).message})`;
  }
}

/** The PKI of a directory another process made; `cleanup()` leaves it to its owner. */
export function pkiAt(dir: string): ThrowawayPki {
  const caFile = join(dir, 'ca.crt');
  return {
    dir,
    caFile,
    caCertPem: readFileSync(caFile, 'utf8'),
    file: (name) => certFiles(dir, name),
    cleanup: () => Promise.resolve(),
  };
}

/** The suite's PKI as tests know it; `cleanup()` removes its directory. */
function throwaway(pki: ClusterPki): ThrowawayPki {
  return { ...pki, cleanup: () => rm(pki.dir, { recursive: true, force: true }) };
}

function adminRequest(
  tls: { ca: Buffer; cert: Buffer; key: Buffer },
  url: URL,
  method: string,
  body: unknown,
  headers: Record<string, string>
): Promise<SuiteResponse> {
  return new Promise((resolve, reject) => {
    const payload =
      body === undefined
        ? undefined
        : Buffer.from(
            typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body)
          );
    const req = request(
      url,
      {
        method,
        ...tls,
        headers: {
          Accept: 'application/json',
          ...(payload ? { 'Content-Type': 'application/json' } : {}),
          ...headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('close', () => {
          if (!res.complete) reject(new Error(`${method} ${url.href}: the answer was cut short`));
        });
        res.on('end', () => {
          const raw = Buffer.concat(chunks);
          const text = raw.toString('utf8');
          let parsed: unknown = text;
          try {
            parsed = JSON.parse(text);
          } catch {
            // not JSON
          }
          resolve({ status: res.statusCode ?? 0, body: parsed, headers: res.headers, text, raw });
        });
      }
    );
    req.on('error', reject);
    req.end(payload);
  });
}
