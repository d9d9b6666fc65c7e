// The suite for tests: the processes of @orch/suite's description (etcd, NATS, storage, the
// authorizer, gateways, optionally the controllers), as `make run` starts them, in a temporary
// home on free ports. Every process is stopped by stop(), and killed if the test process exits.
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Etcd3 } from 'etcd3';
import { ensureClusterPki } from '@orch/component-base/pki';
import type { ClusterPki } from '@orch/component-base/pki';
import {
  LaunchError,
  Launcher,
  describeSuite,
  launchSuite,
  probeReadiness,
  registerTempDir,
  unregisterTempDir,
} from '@orch/suite';
import type { LaunchedProcess, SuiteDescription } from '@orch/suite';
import type { EtcdServer } from './etcd-server.js';
import type { NatsServer } from './nats-server.js';
import type { ThrowawayPki } from './throwaway-pki.js';

export interface Suite {
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
  stop(): Promise<void>;
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
  /** Storage replicas (default 1), as compose runs two; gateway i talks to replica i mod n. */
  storageReplicas?: number;
  storageArgs?: string[];
  /** The gateways' --authorization-mode (default RBAC, answered by the authorizer service). */
  authorizationMode?: 'RBAC' | 'AlwaysAllow' | 'AlwaysDeny';
  authorizerArgs?: string[];
  admissionArgs?: string[];
  /** Extra flags for the certificates service (its controllers and signers, for instance). */
  certificatesArgs?: string[];
  /** Extra flags for every gateway (a function gets the suite's PKI, e.g. to name its files). */
  gatewayArgs?: string[] | ((pki: ThrowawayPki) => string[]);
}

/** Starts over on new ports this many times when a process lost a free port to someone else. */
const attempts = 3;

export async function startSuite(opts: SuiteOptions = {}): Promise<Suite> {
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
  const launcher = new Launcher({ logDir: join(home, 'logs') });
  try {
    const pki = throwaway(await ensureClusterPki(join(home, 'pki')));
    const d = await describeSuite({
      home,
      gateways: opts.gateways ?? 1,
      storageReplicas: opts.storageReplicas ?? 1,
      authorizationMode: opts.authorizationMode ?? 'RBAC',
      controllers: opts.controllers ?? false,
      args: {
        storage: opts.storageArgs ?? [],
        authorizer: opts.authorizerArgs ?? [],
        admission: opts.admissionArgs ?? [],
        certificates: opts.certificatesArgs ?? [],
        gateway:
          typeof opts.gatewayArgs === 'function' ? opts.gatewayArgs(pki) : (opts.gatewayArgs ?? []),
      },
    });
    await launchSuite(d, launcher);
    const suite = suiteOf(d, launcher, pki, async () => {
      await launcher.stop();
      await removeHome();
    });
    await writeFile(
      join(home, 'suite.json'),
      JSON.stringify({
        gateways: suite.gateways,
        storagePort: suite.storagePort,
        authorizerPort: suite.authorizerPort,
        admissionPort: suite.admissionPort,
      })
    );
    return suite;
  } catch (err) {
    await launcher.stop();
    await removeHome();
    throw err;
  }
}

function suiteOf(
  d: SuiteDescription,
  launcher: Launcher,
  pki: ThrowawayPki,
  stop: () => Promise<void>
): Suite {
  const proc = (name: string): LaunchedProcess => {
    const p = launcher.get(name);
    if (!p) throw new Error(`the suite has no process ${name}`);
    return p;
  };
  const admin = pki.file('admin');
  const adminTls = {
    ca: readFileSync(pki.caFile),
    cert: readFileSync(admin.certFile),
    key: readFileSync(admin.keyFile),
  };
  const gateways = d.gateways.map((g) => g.url);
  const port = (address: string): number => Number(address.slice(address.lastIndexOf(':') + 1));
  return {
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
    kubeconfigs: d.adminKubeconfigs,
    storagePort: port(d.storage[0]!),
    authorizerPort: port(d.authorizer),
    certificatesPort: port(d.certificates),
    admissionPort: port(d.admission),
    stopAdmission: async () => {
      await proc('admission').stop('SIGTERM');
    },
    storage: d.storage,
    processNames: () => launcher.processes.map((p) => p.name),
    kill: (name) => proc(name).stop('SIGKILL'),
    restart: async (name, timeoutMs) => {
      const startedAt = Date.now();
      const p = launcher.respawn(name);
      await withTimeout(launcher.waitReady(p), timeoutMs, `${name} after its restart`);
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
      const client = new Etcd3({ hosts: d.etcdUrl });
      try {
        const identity = await client.election(publisherElection).leader();
        // Storage replica i campaigns as storage-<i>; its process is `storage` when alone.
        return identity === undefined || d.storage.length > 1 ? identity : 'storage';
      } finally {
        client.close();
      }
    },
    logTail: (name, lines) => proc(name).logTail(lines),
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
